/**
 * A run's output as an async iterator that survives dropped connections. It attaches to
 * `GET …/execs/{execId}/output` as Server-Sent Events; when the connection drops or stalls
 * before the `exit` event, it reconnects with `Last-Event-ID` set to the last sequence
 * number it yielded, so each event arrives exactly once and in order. It gives up after
 * `maxRetries` reconnects in a row that brought no new event.
 */
import { getExecOutput } from "../generated/sdk.gen.ts";
import type { Core, RequestOptions } from "./core.ts";
import { APIConnectionError, APIError, APIUserAbortError } from "./errors.ts";
import { retryDelayMs } from "./retry.ts";
import { readSse, type SseFrame } from "./sse.ts";
import { sleep } from "./transport.ts";

export type ExecStatus = "running" | "completed" | "failed" | "cancelled" | "timed_out";

export interface OutputChunk {
  seq: number;
  stream: "stdout" | "stderr";
  /** The bytes as UTF-8 text (invalid sequences replaced). */
  text: string;
  /** The exact bytes, base64-encoded, when they are not valid UTF-8. */
  base64?: string;
}

export interface ExitEvent {
  seq: number;
  stream: "exit";
  status: ExecStatus;
  exitCode: number | null;
  durationMs: number | null;
}

export type ExecEvent = OutputChunk | ExitEvent;

const KNOWN_EVENTS = new Set(["stdout", "stderr", "exit"]);

function toEvent(frame: SseFrame): ExecEvent {
  const seq = Number(frame.id);
  const data = JSON.parse(frame.data) as Record<string, unknown>;
  if (frame.event === "exit") {
    const { status, exitCode, durationMs } = data as Omit<ExitEvent, "seq" | "stream">;
    return { seq, stream: "exit", status, exitCode: exitCode ?? null, durationMs: durationMs ?? null };
  }
  const chunk: OutputChunk = { seq, stream: frame.event as OutputChunk["stream"], text: String(data.text ?? "") };
  if (typeof data.base64 === "string") chunk.base64 = data.base64;
  return chunk;
}

export class ExecStream implements AsyncIterable<ExecEvent> {
  /** The run's id, once it has started. */
  id: string | undefined;
  /** The exit event, once the stream has reached it. */
  exit: ExitEvent | undefined;
  /** The snapshot taken just before the run (`snapshot: "before"`), once it has started: one restore undoes the run. */
  snapshotId: string | undefined;
  private lastSeq: number | null;

  private readonly core: Core;
  private readonly workspaceId: string;
  private readonly start: string | (() => Promise<string>);
  private readonly options: RequestOptions & { after?: number };
  /** @internal Made by the client; not constructed directly. */
  constructor(
    core: Core,
    workspaceId: string,
    start: string | (() => Promise<string>),
    options: RequestOptions & { after?: number } = {},
  ) {
    this.core = core;
    this.workspaceId = workspaceId;
    this.start = start;
    this.options = options;
    this.id = typeof start === "string" ? start : undefined;
    this.lastSeq = options.after ?? null;
  }

  private async open(execId: string): Promise<ReadableStream<Uint8Array>> {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (this.lastSeq !== null) headers["last-event-id"] = String(this.lastSeq);
    // One attempt per connection: reconnecting is this loop's job, with its own count.
    const { data } = await getExecOutput({
      ...this.core.options({ ...this.options, maxRetries: 0 }),
      path: { workspaceId: this.workspaceId, execId },
      headers,
      parseAs: "stream",
    });
    return data as unknown as ReadableStream<Uint8Array>;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ExecEvent> {
    if (this.id === undefined) this.id = typeof this.start === "string" ? this.start : await this.start();
    const maxRetries = this.options.maxRetries ?? this.core.settings.maxRetries;
    const wait = this.core.settings.sleep ?? sleep;
    for (let failures = 0; ; ) {
      let cause: unknown;
      try {
        for await (const frame of readSse(await this.open(this.id))) {
          // Events this version does not know (the server may add some) carry no output.
          if (!KNOWN_EVENTS.has(frame.event)) continue;
          const event = toEvent(frame);
          if (this.lastSeq !== null && event.seq <= this.lastSeq) continue;
          this.lastSeq = event.seq;
          failures = 0;
          yield event;
          if (event.stream === "exit") {
            this.exit = event;
            return;
          }
        }
      } catch (error) {
        // An answer (404, 401…) or the caller's abort is final; only a lost connection is resumed.
        if (error instanceof APIError || error instanceof APIUserAbortError) throw error;
        cause = error;
      }
      if (failures >= maxRetries) {
        throw new APIConnectionError(`the output of ${this.id} stopped before its exit event`, { cause });
      }
      await wait(retryDelayMs(failures++, null) ?? 0, this.options.signal ?? new AbortController().signal);
    }
  }

  /** Reads to the end and gathers the output: what `exec()` answers, built from the stream. */
  async collect(): Promise<{ stdout: string; stderr: string; exit: ExitEvent }> {
    let stdout = "";
    let stderr = "";
    for await (const event of this) {
      if (event.stream === "stdout") stdout += event.text;
      else if (event.stream === "stderr") stderr += event.text;
    }
    if (this.exit === undefined) throw new APIConnectionError(`the output of ${this.id} ended without an exit event`);
    return { stdout, stderr, exit: this.exit };
  }
}
