/**
 * File contents through MCP. Over REST a file's bytes are the raw body; a tool call is
 * JSON, so `file_write` takes them as `content` (UTF-8 text, or base64 for other bytes)
 * and `file_read` answers text when the bytes are UTF-8 and base64 otherwise. Everything
 * else (path rules, preconditions, size limits, scope, prefix) is the REST route's.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpLimits } from "./limits.ts";
import { invalidArguments, resultOf } from "./results.ts";
import type { Tool } from "./tool.ts";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export const fileReadTool: Tool = {
  name: "file_read",
  operationId: "getFile",
  description: `Read a file of a workspace: text when it is UTF-8, else base64. At most ${mcpLimits.readBytesMax} bytes a call; read a larger file in parts with \`offset\` and \`length\`. \`at\` (a snapshot id, or a version's \`readAt\` from \`file_history\`) reads it as it was then.`,
  extra: {
    properties: {
      offset: { type: "integer", minimum: 0, default: 0, description: "The first byte to read." },
      length: {
        type: "integer",
        minimum: 1,
        maximum: mcpLimits.readBytesMax,
        description: `Bytes to read from \`offset\`; default to the end of the file, at most ${mcpLimits.readBytesMax}.`,
      },
    },
  },
  annotations: { title: "Read a file", readOnlyHint: true, openWorldHint: false },
  run: async (context, args) => {
    const { offset = 0, length, ...rest } = args as { offset?: number; length?: number };
    const ranged = offset > 0 || length !== undefined;
    const headers: Record<string, string> = ranged
      ? { range: `bytes=${offset}-${length === undefined ? "" : offset + length - 1}` }
      : {};
    const response = await context.call(rest, { headers });
    if (!response.ok || !response.body) return resultOf(response);
    const { bytes, more } = await readAtMost(response.body, mcpLimits.readBytesMax);
    const size = sizeOf(response);
    return fileContent(bytes, { size, offset, more });
  },
};

export const fileWriteTool: Tool = {
  name: "file_write",
  operationId: "putFile",
  description:
    "Write a file of a workspace, replacing it (or appending with `append`); parent directories are made. `content` is UTF-8 text, or base64 with `encoding: base64`.",
  extra: {
    properties: {
      content: { type: "string", description: "The file's contents." },
      encoding: { type: "string", enum: ["utf8", "base64"], default: "utf8" },
    },
    required: ["content"],
  },
  annotations: { title: "Write a file", readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  run: async (context, args) => {
    const { content, encoding = "utf8", ...rest } = args as { content: unknown; encoding?: string };
    if (typeof content !== "string") return invalidArguments("`content` must be a string");
    const bytes = encoding === "base64" ? fromBase64(content) : new TextEncoder().encode(content);
    if (bytes === null) return invalidArguments("`content` is not base64");
    const headers = { "content-type": "application/octet-stream" };
    return resultOf(await context.call(rest, { body: bytes, headers }));
  },
};

/** A file's bytes as a tool result: the text itself for a model to read, or base64. */
function fileContent(bytes: Uint8Array, at: { size: number | null; offset: number; more: boolean }): CallToolResult {
  const text = decodeUtf8(bytes, at.more);
  const content: CallToolResult["content"] = [
    text === null
      ? { type: "text", text: `(binary, ${bytes.byteLength} bytes, base64) ${toBase64(bytes)}` }
      : { type: "text", text },
  ];
  if (at.more) {
    const shown = text === null ? bytes.byteLength : new TextEncoder().encode(text).byteLength;
    const next = at.offset + shown;
    content.push({
      type: "text",
      text: `(truncated: read from offset ${next} for the rest of ${at.size ?? "?"} bytes)`,
    });
  }
  return { content };
}

/**
 * The bytes of a UTF-8 file as text, or null when they are not UTF-8. A read cut short
 * (`cut`) may end inside a character: up to three bytes from a lead byte on are left off.
 */
export function decodeUtf8(bytes: Uint8Array, cut = false): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    if (!cut) return null;
    for (let back = 1; back <= 3 && back < bytes.byteLength; back++) {
      if ((bytes[bytes.byteLength - back] as number) < 0xc0) continue;
      try {
        return strict.decode(bytes.subarray(0, bytes.byteLength - back));
      } catch {
        return null;
      }
    }
    return null;
  }
}

/** Up to `max` bytes of a body, then the rest cancelled: a large file is never held whole. */
export async function readAtMost(body: ReadableStream<Uint8Array>, max: number) {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  let more = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    total += value.byteLength;
    if (total >= max) {
      more = total > max || !(await reader.read().then((r) => r.done));
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return { bytes: bytes.subarray(0, Math.min(total, max)), more };
}

function sizeOf(response: Response): number | null {
  const range = response.headers.get("content-range");
  const total = range ? range.split("/")[1] : response.headers.get("content-length");
  return total && /^\d+$/.test(total) ? Number(total) : null;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.byteLength; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
