/**
 * `ws.exec(...)` runs one thing and answers when it ends; `ws.exec.stream(...)` yields its
 * output as it happens and resumes after a dropped connection; `ws.execs` reads and
 * controls runs already started.
 */
import { exec, getExec, killExec, listExecs } from "../generated/sdk.gen.ts";
import type { ExecData, ExecRecord, ExecResult } from "../generated/types.gen.ts";
import type { Core, IdempotentOptions, RequestOptions } from "./core.ts";
import { ExecStream } from "./execStream.ts";
import { Pager } from "./pagination.ts";

/** `Omit` for each member of a union: the plain one merges the members and loses which fields go together. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A run: `{ executor: "shell" | "container", command }` or `{ executor: "javascript", code, input? }`, and the shared options. */
export type ExecParams = OmitEach<ExecData["body"], "background">;

/** Room on top of the run's own time limit for the answer to come back. */
const ANSWER_MARGIN_MS = 30_000;
/** The server's default run time limit (`timeoutMs` when the request gives none). */
const RUN_TIMEOUT_DEFAULT_MS = 60_000;

export interface ExecFn {
  /** Runs and waits for the end: the result carries stdout, stderr, the exit code and usage. */
  (params: ExecParams, options?: IdempotentOptions): Promise<ExecResult>;
  /** Starts the run and yields its output events as they happen, ending with `exit`. */
  stream(params: ExecParams, options?: IdempotentOptions): ExecStream;
  /** Starts the run in the background and answers at once with its id (`status: "running"`). */
  start(params: ExecParams, options?: IdempotentOptions): Promise<ExecResult>;
}

export function execFn(core: Core, workspaceId: string): ExecFn {
  const run = async (body: ExecData["body"], options: IdempotentOptions) => {
    // A run may legitimately take its whole time limit: never time the answer out before that.
    const runMs = body.timeoutMs ?? RUN_TIMEOUT_DEFAULT_MS;
    const timeoutMs = Math.max(
      options.timeoutMs ?? core.settings.timeoutMs,
      body.background ? 0 : runMs + ANSWER_MARGIN_MS,
    );
    const { data } = await exec({ ...core.idempotent({ ...options, timeoutMs }), path: { workspaceId }, body });
    return data as ExecResult;
  };
  const fn = ((params: ExecParams, options: IdempotentOptions = {}) => run(params, options)) as ExecFn;
  fn.start = (params, options = {}) => run({ ...params, background: true }, options);
  fn.stream = (params, options = {}) => {
    const stream: ExecStream = new ExecStream(
      core,
      workspaceId,
      async () => {
        const started = await fn.start(params, options);
        // The start's answer carries the snapshot id; the output stream never does.
        stream.snapshotId = started.snapshotId;
        return started.id;
      },
      options,
    );
    return stream;
  };
  return fn;
}

export class Execs {
  private readonly core: Core;
  private readonly workspaceId: string;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core, workspaceId: string) {
    this.core = core;
    this.workspaceId = workspaceId;
  }

  /** Recent runs, newest first. */
  list(options: RequestOptions & { limit?: number } = {}): Pager<ExecRecord> {
    return new Pager(async (cursor) => {
      const { data } = await listExecs({
        ...this.core.options(options),
        path: { workspaceId: this.workspaceId },
        query: { limit: options.limit, cursor },
      });
      return { items: data.data, nextCursor: data.nextCursor };
    });
  }

  async get(execId: string, options: RequestOptions = {}): Promise<ExecRecord> {
    const { data } = await getExec({ ...this.core.options(options), path: { workspaceId: this.workspaceId, execId } });
    return data as ExecRecord;
  }

  /** Attaches to a run's output, from the start or after sequence number `after`. */
  stream(execId: string, options: RequestOptions & { after?: number } = {}): ExecStream {
    return new ExecStream(this.core, this.workspaceId, execId, options);
  }

  async kill(execId: string, options: RequestOptions = {}) {
    const { data } = await killExec({ ...this.core.options(options), path: { workspaceId: this.workspaceId, execId } });
    return data;
  }
}
