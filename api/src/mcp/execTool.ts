/**
 * `exec`: one run, answered when it ends with its exit code and output. When the client
 * asks for progress, a shell or container run is called as the REST event stream
 * (`Accept: text/event-stream`) and each stdout/stderr event becomes a progress
 * notification as it happens; the call is still the one `exec` request, billed as such.
 * A JavaScript run is called plainly: its answer is the module's `result`, which the
 * stream's exit event does not carry.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpLimits } from "./limits.ts";
import { resultOf } from "./results.ts";
import type { Tool, ToolContext } from "./tool.ts";

export const execTool: Tool = {
  name: "exec",
  operationId: "exec",
  description: [
    "Run a command in a workspace; its files are at /workspace, the default cwd, and what the command writes stays there.",
    "executor `shell`: bash with coreutils, grep, sed, awk, jq and git, no network; starts in milliseconds, so use it first.",
    "executor `container`: a real Linux box (python3, node, npm, pandoc, compilers, network when `egress` allows); use it when the shell lacks a program.",
    "executor `javascript`: `code` is an ES module whose default export receives `input` and returns JSON, answered as `result`.",
    "Answers when the run ends: exitCode, stdout, stderr (a non-zero exit is an answer, not an error). Output streams as progress notifications when asked for.",
  ].join(" "),
  // The tool waits for the run; a run in the background would need tools to poll it.
  omit: ["background"],
  annotations: { title: "Run a command", readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  run: async (context, args) => {
    const plain = { ...args, background: false };
    if (!context.progress || args.executor === "javascript") return resultOf(await context.call(plain));
    const response = await context.call(plain, { headers: { accept: "text/event-stream" }, signal: context.signal });
    if (!response.ok || !response.body) return resultOf(response);
    return streamed(response.body, context);
  },
};

async function streamed(body: ReadableStream<Uint8Array>, context: ToolContext): Promise<CallToolResult> {
  const output = { stdout: "", stderr: "" };
  let id = "";
  let notified = 0;
  for await (const event of frames(body)) {
    if (event.event === "exec") id = (JSON.parse(event.data) as { id: string }).id;
    else if (event.event === "stdout" || event.event === "stderr") {
      const { text } = JSON.parse(event.data) as { text: string };
      output[event.event] += text;
      if (notified++ < mcpLimits.progressEventsMax) await context.progress?.(Number(event.id), text);
    } else if (event.event === "exit") {
      const outcome = JSON.parse(event.data) as Record<string, unknown>;
      const result = { id, ...outcome, ...output };
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    }
  }
  const text = `Error: the run's output stream ended before its exit event; run ${id} may still be going.`;
  return { isError: true, content: [{ type: "text", text }] };
}

interface Frame {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Server-Sent Events frames. Hand-written because the stream is the gateway's own
 * (tenants/workspace/execs/sse.ts: `id`, `event` and one `data` line a frame, and comment
 * keepalives), not arbitrary SSE from the web.
 */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const frame: Frame = { id: null, event: "message", data: "" };
      for (const line of buffer.slice(0, end).split("\n")) {
        const colon = line.indexOf(":");
        if (colon <= 0) continue;
        const value = line.slice(colon + 1).replace(/^ /, "");
        const field = line.slice(0, colon);
        if (field === "id") frame.id = value;
        else if (field === "event") frame.event = value;
        else if (field === "data") frame.data += value;
      }
      buffer = buffer.slice(end + 2);
      if (frame.data) yield frame;
    }
  }
}
