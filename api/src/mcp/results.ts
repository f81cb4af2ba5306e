/**
 * REST answers as MCP tool results. A success is the answer's JSON, as text (what a model
 * reads) and as `structuredContent` (what a program reads). A refusal is a tool result with
 * `isError: true` rather than a JSON-RPC error, so the model sees why and can act on it:
 * the problem's `code`, its detail, and when to retry.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../errors.ts";

export async function resultOf(response: Response): Promise<CallToolResult> {
  if (response.status === 204) return { content: [{ type: "text", text: "Done." }] };
  const text = await response.text();
  const body = parseJson(text);
  if (!response.ok) return refusal(response.status, body, response.headers.get("retry-after"));
  const structured = isRecord(body) ? { structuredContent: body } : {};
  return { content: [{ type: "text", text }], ...structured };
}

/** A refusal decided before any REST call (an argument missing, a tool that does not exist, admission). */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof ApiError) {
    return refusal(error.status, { code: error.code, detail: error.detail }, error.extra.headers?.["retry-after"]);
  }
  throw error;
}

export function invalidArguments(detail: string): CallToolResult {
  return refusal(400, { code: "validation_failed", detail }, null);
}

function refusal(status: number, body: unknown, retryAfter: string | null | undefined): CallToolResult {
  const problem = isRecord(body) ? body : { code: "internal", detail: String(body ?? "") };
  const retry = retryAfter ? ` Retry after ${retryAfter} s.` : "";
  const text = `Error ${status} ${String(problem.code)}: ${String(problem.detail ?? "")}${retry}`;
  return { isError: true, content: [{ type: "text", text }], structuredContent: { status, ...problem } };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
