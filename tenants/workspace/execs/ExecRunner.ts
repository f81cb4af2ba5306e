/**
 * Runs executions for one workspace object, from start to end: with the slot the tenant's
 * object granted (TenantDO.exec, tenants/account/runs.ts), creates the record, hands the
 * request to the executor with a sink that stores output as it arrives, wakes anyone
 * watching, enforces a backstop timeout and finishes the record. A run the caller waits for
 * is metered by the tenant's object when this answers; a background run, which answered at
 * once, is metered from here when it ends (which frees its slot). Lives inside WorkspaceDO.
 */
import { RpcTarget } from "cloudflare:workers";
import type { EgressPolicy } from "../../../container/wire/egress/allowList.ts";
import {
  type ExecOutcome,
  type ExecRequest,
  type Executor,
  type ExecutorName,
  exitCodes,
  type OutputPiece,
  type OutputSink,
  type OutputStream,
} from "../../../executors/contract.ts";
import { execLimits } from "../../../executors/limits.ts";
import type { RateHeaders, RunGrant } from "../../account/rpc.ts";
import type { Reported } from "../stats.ts";
import type { ExecRecord, ExecRecords, OutputEvent } from "./records.ts";
import { SSE_KEEPALIVE, sseFrame } from "./sse.ts";

/**
 * What the gateway asks for: the request plus the key that pays for it. The tenant and
 * workspace are the object's own (names.ts), and the timeout asked for is cut by the
 * ledger to what the plan leaves.
 */
export interface StartExec extends Omit<ExecRequest, "egress" | "resources"> {
  /**
   * What the run may reach: null for no network; `allow` null for any public host, else
   * only the listed hosts (normalised, allowList.ts). The executor is told only whether it
   * has network; the outbound gateway enforces the list.
   */
  egress: EgressPolicy | null;
  executor: ExecutorName;
  keyId: string | null;
  background: boolean;
  /** The path prefix the caller's credential is confined to; the run's file capability is confined to it too. */
  pathPrefix: string | null;
  /** The request's public origin (`https://api.example.com`), for the URLs `publish` and `share` hand back. */
  baseUrl: string;
  /** When the caller's credential expires (RFC 3339), or null; share links made in the run expire no later. */
  credentialExpiresAt: string | null;
  /**
   * The API request behind the run when the gateway left its admission to the run: the
   * tenant's object admits and counts it with the run's slot, in one call (RunRequest.request).
   */
  requestId?: string | undefined;
}

export interface ExecResult {
  id: string;
  status: ExecRecord["status"];
  exitCode: number | null;
  stdout: string;
  stderr: string;
  resultJson?: string;
  durationMs: number | null;
  truncated: boolean;
  usage: { meter: string; quantity: number } | null;
  /** Why the run stopped early (a limit, a kill, a crash), or null. */
  error: string | null;
  /** Which resource limit ended it, or null. */
  reason: ExecRecord["reason"];
  /** container: how the workspace was mounted, or null. */
  mount: ExecRecord["mount"];
  /** container: paths the box and the workspace both changed, and where the box's version went. */
  conflicts: ExecRecord["conflicts"];
  /** The output and result were left out of this answer for their size (`answerOutputBytesMax`). */
  outputElided?: true;
}

/**
 * A run's output and result travel with its answer through the tenant's object (which meters
 * the run, tenants/account/runs.ts) only up to this size together: that object serves all of
 * a tenant's requests from one isolate, whose memory a run printing megabytes must not fill.
 * Past it the answer says `outputElided`, and the gateway reads them from the workspace's
 * object (`WorkspaceDO.execResult`): one call more, for a run whose transfer dwarfs a call.
 * Counted in string length (UTF-16 units, a byte each for ASCII): the strings are at hand,
 * and encoding up to 16 MiB only to measure it would cost more than the bound saves.
 */
export const answerOutputBytesMax = 256 * 1024;

/** The result as it may travel through the tenant's object: without its output when that is large. */
export function answerable<T extends ExecResult>(result: T): T {
  const bytes = result.stdout.length + result.stderr.length + (result.resultJson?.length ?? 0);
  if (bytes <= answerOutputBytesMax) return result;
  const { resultJson: _, ...rest } = result;
  return { ...rest, stdout: "", stderr: "", outputElided: true } as T;
}

/** Why a run was not started: nothing was recorded, and no slot is held. */
export interface ExecRefusal {
  ok: false;
  code:
    | "executor_unavailable"
    | "executor_starting"
    | "rate_limited"
    | "quota_exceeded"
    | "spend_cap_reached"
    | "forbidden"
    | "not_found";
  message: string;
  /** When asking again makes sense. */
  retryAfterSeconds?: number;
  /** The rate headers, when the run's request was admitted (or refused) with its slot. */
  rate?: RateHeaders;
}

/** A run that started, with the rate headers when its request was admitted with its slot. */
export type StartedRun = ExecResult & { rate?: RateHeaders };

export type StartAnswer = StartedRun | ExecRefusal;

/**
 * What a workspace object answers its run's caller: the run (ended, or `running` in the
 * background) with the workspace's counters after it and the snapshot taken before it, or
 * why it did not start.
 */
export type RunAnswer = ExecRefusal | (StartedRun & Reported & { snapshotId?: string });

/** What a run asks of its workspace beyond the command: a snapshot just before it. */
export interface RunOptions {
  snapshot?: "before";
}

/** The slot the tenant's object granted a run: its timeout, cut to what the plan leaves, and a computer's limits. */
export type Granted = Omit<Extract<RunGrant, { ok: true }>, "ok" | "rate">;

/** Work done once the run holds its slot and before it starts (a snapshot); a refusal gives the slot back. */
export type BeforeRun = () => Promise<ExecRefusal | null>;

/** The tenant's ledger as a background run sees it: its slot, given back when it ends. */
export interface RunLedger {
  /** Records the run's time and the workspace's size after it, and frees its slot, in one call. */
  close(start: StartExec, record: ExecRecord): Promise<void>;
}

/** Runs at once per workspace, for executors whose runs each hold an isolate in this object's process. */
const runsPerWorkspaceMax: Partial<Record<ExecutorName, number>> = {
  javascript: execLimits.javascriptRunsPerWorkspaceMax,
};

/** Grace after the executor's own timeout before the object gives up on it. */
const BACKSTOP_GRACE_MS = 5_000;
const KEEPALIVE_MS = 15_000;
/** Runs between two prunes of old records; the first run of an instance prunes too. */
const PRUNE_EVERY = 50;

class RecordingSink extends RpcTarget implements OutputSink {
  constructor(private readonly onWrite: (stream: OutputStream, data: Uint8Array) => void) {
    super();
  }
  async write(stream: OutputStream, data: Uint8Array): Promise<void> {
    this.onWrite(stream, data);
  }
}

export class ExecRunner {
  private readonly running = new Map<
    string,
    { executor: Executor; done: Promise<ExecRecord | null>; name: ExecutorName }
  >();
  private readonly wakers = new Map<string, Set<() => void>>();
  private finishedRuns = 0;

  constructor(
    readonly records: ExecRecords,
    private readonly executorFor: (start: StartExec) => Promise<Executor | null>,
    private readonly ledger: RunLedger,
    private readonly keepAlive: (work: Promise<unknown>) => void,
  ) {}

  /**
   * Starts a run that holds its slot (`grant`; the slot came before readiness, so a run the
   * plan refuses never wakes a computer); answers when it ends, or at once (status
   * `running`) for a background run. A refusal here leaves the slot to its granter to free.
   */
  async start(start: StartExec, grant: Granted, beforeRun?: BeforeRun): Promise<StartAnswer> {
    const executor = await this.executorFor(start);
    if (!executor)
      return {
        ok: false,
        code: "executor_unavailable",
        message: `the ${start.executor} executor is not available here`,
      };
    const refusal = (await beforeRun?.()) ?? (await this.unready(executor, start.executor));
    if (refusal) return refusal;
    this.records.create(
      start.execId,
      start.executor,
      start.command ?? start.code ?? "",
      start.keyId,
      start.outputBytesMax,
      start.pathPrefix,
      start.egress,
    );
    const sink = new RecordingSink((stream, data) =>
      this.notify(start.execId, this.records.append(start.execId, stream, data)),
    );
    const request: ExecRequest = {
      execId: start.execId,
      ...(start.command !== undefined ? { command: start.command } : {}),
      ...(start.code !== undefined ? { code: start.code } : {}),
      ...(start.input !== undefined ? { input: start.input } : {}),
      cwd: start.cwd,
      env: start.env,
      stdin: start.stdin,
      timeoutMs: grant.timeoutMs,
      // One byte past what is stored, so the record sees the overflow and writes its marker.
      outputBytesMax: Math.min(start.outputBytesMax, execLimits.outputBytesMax) + 1,
      egress: start.egress !== null,
      // The computer's limits under the tenant's plan, for container runs.
      ...(grant.resources ? { resources: grant.resources } : {}),
      ...(start.user ? { user: start.user } : {}),
    };
    const done = this.drive(executor, request, sink, start);
    this.running.set(start.execId, { executor, done, name: start.executor });
    if (start.background) this.keepAlive(done);
    const record = (start.background ? null : await done) ?? (this.records.get(start.execId) as ExecRecord);
    return this.result(record);
  }

  /**
   * Why the executor cannot take the run now: its computer is still starting, or the
   * workspace has its most runs of it going. The cap is checked after the last await before
   * the run is registered, so concurrent starts cannot both pass.
   */
  private async unready(executor: Executor, name: ExecutorName): Promise<ExecRefusal | null> {
    const readiness = (await executor.ready?.()) ?? { ok: true };
    if (readiness.ok) return this.overWorkspaceCap(name);
    return {
      ok: false,
      code: "executor_starting",
      message: readiness.message,
      retryAfterSeconds: readiness.retryAfterSeconds,
    };
  }

  /** A refusal when the workspace already has its most runs of this executor going. */
  private overWorkspaceCap(name: ExecutorName): ExecRefusal | null {
    const cap = runsPerWorkspaceMax[name];
    if (cap === undefined || [...this.running.values()].filter((run) => run.name === name).length < cap) return null;
    return {
      ok: false,
      code: "rate_limited",
      message: `this workspace already has ${cap} ${name} runs going, the most it may have at once; retry when one ends`,
      retryAfterSeconds: 1,
    };
  }

  async kill(execId: string): Promise<ExecRecord | null> {
    const run = this.running.get(execId);
    if (run) {
      await run.executor.kill(execId);
      // If the executor does not stop in time, the record ends as cancelled anyway.
      await Promise.race([run.done, new Promise((r) => setTimeout(r, BACKSTOP_GRACE_MS))]);
      this.end(execId, { status: "cancelled", exitCode: exitCodes.killed, error: "killed" });
    }
    return this.records.get(execId);
  }

  /** Server-Sent Events of a run's output after `after`, live until its exit event. */
  watch(execId: string, after: number): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let last = after;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const events = this.records.output(execId, last, 256);
        if (events.length > 0) {
          for (const event of events) controller.enqueue(encoder.encode(sseFrame(event)));
          last = events.at(-1)?.seq ?? last;
          if (events.at(-1)?.stream === "exit") controller.close();
          return;
        }
        const record = this.records.get(execId);
        if (record?.status !== "running") return controller.close();
        if (!(await this.nextOutput(execId))) controller.enqueue(encoder.encode(SSE_KEEPALIVE));
      },
    });
  }

  private async drive(
    executor: Executor,
    request: ExecRequest,
    sink: OutputSink,
    start: StartExec,
  ): Promise<ExecRecord | null> {
    // Typed through clearTimeout so this compiles under both the Workers and Node type sets.
    let timer: Parameters<typeof clearTimeout>[0] = undefined as never;
    const backstop = new Promise<ExecOutcome>((resolve) => {
      timer = setTimeout(() => {
        void executor.kill(request.execId);
        resolve({
          status: "timed_out",
          exitCode: exitCodes.timedOut,
          error: `no answer ${BACKSTOP_GRACE_MS} ms after the timeout`,
        });
      }, request.timeoutMs + BACKSTOP_GRACE_MS) as never;
    });
    let outcome: ExecOutcome;
    try {
      outcome = await Promise.race([executor.run(request, sink), backstop]);
    } catch (error) {
      outcome = { status: "failed", exitCode: 1, error: `the executor failed: ${(error as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
    // Output the executor kept for its answer follows what its sink took (ExecOutcome.tail).
    // A run that `kill` ended already has its record.
    const record = this.end(request.execId, outcome, outcome.tail) ?? this.records.get(request.execId);
    // A background run's caller had its answer long ago: the ledger records the run and frees
    // its slot from here. The call leaves before anyone can see the run ended (its record is
    // written first, in this turn), so a next request reaches the tenant's object after it.
    // A run the caller waits for is metered by the tenant's object, which is that caller.
    if (record && start.background) {
      this.keepAlive(
        this.ledger.close(start, record).catch((error) => console.error("metering failed", record.id, error)),
      );
    }
    // Pruning scans the records, so it runs every PRUNE_EVERY runs rather than after each.
    if (++this.finishedRuns % PRUNE_EVERY === 1) this.records.prune();
    return record;
  }

  /** Ends a run's record (the first end counts); answers the record, or null when it had already ended. */
  private end(execId: string, outcome: ExecOutcome, tail: readonly OutputPiece[] = []): ExecRecord | null {
    const finished = this.records.finish(execId, outcome, tail);
    this.running.delete(execId);
    if (!finished) return null;
    this.notify(execId, finished.events);
    return finished.record;
  }

  private notify(execId: string, events: OutputEvent[]): void {
    if (events.length === 0) return;
    const wakers = this.wakers.get(execId);
    this.wakers.delete(execId);
    for (const wake of wakers ?? []) wake();
  }

  /** Resolves true when new output arrives, false after the keep-alive interval. */
  private nextOutput(execId: string): Promise<boolean> {
    return new Promise((resolve) => {
      const wakers = this.wakers.get(execId) ?? new Set();
      this.wakers.set(execId, wakers);
      const timer = setTimeout(() => {
        wakers.delete(wake);
        resolve(false);
      }, KEEPALIVE_MS);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      wakers.add(wake);
    });
  }

  /** A run's result as its answer gives it, or null when there is no such run. */
  resultOf(execId: string): ExecResult | null {
    const record = this.records.get(execId);
    return record ? this.result(record) : null;
  }

  private result(record: ExecRecord): ExecResult {
    const events = this.records.output(record.id, 0, Number.MAX_SAFE_INTEGER);
    const decoder = (stream: string) =>
      new TextDecoder().decode(concat(events.filter((e) => e.stream === stream).map((e) => e.data)));
    return {
      id: record.id,
      status: record.status,
      exitCode: record.exitCode,
      stdout: decoder("stdout"),
      stderr: decoder("stderr"),
      ...(record.resultJson !== undefined ? { resultJson: record.resultJson } : {}),
      durationMs: record.durationMs,
      truncated: record.truncated,
      usage: record.durationMs === null ? null : { meter: `${record.executor}_ms`, quantity: record.durationMs },
      error: record.error,
      reason: record.reason,
      mount: record.mount,
      conflicts: record.conflicts,
    };
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
