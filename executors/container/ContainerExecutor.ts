/**
 * The container executor, as the workspace object drives it: each run is one `exec` on the
 * workspace's computerd over the link's capnweb session. computerd answers only after every
 * change the command made is committed to this object, so the run's files are visible to
 * the API when the result is returned. Output travels through a capnweb target wrapping the
 * object's durable sink, awaited per piece (back-pressure).
 *
 * A run with egress gets its allow list sent along: computerd's per-exec proxy enforces it
 * (container/src/egress) and answers with the bytes that crossed, which this executor bills
 * as one `egress_bytes` event when the run ends.
 */
import { RpcTarget } from "capnweb";
import type { OutputSinkApi } from "../../container/wire/index.ts";
import {
  type ExecConflict,
  type ExecOutcome,
  type ExecRequest,
  type Executor,
  type ExecutorReadiness,
  exitCodes,
  type OutputPiece,
  type OutputSink,
  type OutputStream,
} from "../contract.ts";
import type { ComputerLink } from "./ComputerLink.ts";
import { ComputerStarting } from "./ComputerStarting.ts";
import { containerLimits } from "./limits.ts";

class SinkTarget extends RpcTarget implements OutputSinkApi {
  constructor(private readonly sink: OutputSink) {
    super();
  }
  write(stream: OutputStream, data: Uint8Array): Promise<void> {
    return this.sink.write(stream, data);
  }
}

/** A run's network, for runs that may reach it. */
export interface ContainerEgress {
  /** The run's normalised allow list, sent to computerd's proxy; null for any public host. */
  allow: string[] | null;
  /**
   * Records the run's egress bytes as its one `egress_bytes` event (the workspace object binds
   * who pays and the run's event id). Called at most once per run, and only with bytes > 0.
   */
  record(bytes: number): Promise<void>;
}

export interface ContainerRunOptions {
  /** The run's credential confinement; the container needs the whole workspace. */
  pathPrefix: string | null;
  /** The run's network; null gives the command none, whatever `ExecRequest.egress` says. */
  egress: ContainerEgress | null;
  /** The workspace's revision now: computerd pulls at least that far before the command starts. */
  revision(): number;
}

export function createContainerExecutor(link: ComputerLink, options: ContainerRunOptions): Executor {
  return {
    async run(request: ExecRequest, sink: OutputSink): Promise<ExecOutcome> {
      if (options.pathPrefix !== null) {
        const error = `the container mounts the whole workspace; a credential confined to ${options.pathPrefix} cannot run it`;
        // On stderr too: the run's answer shows its output, and this is the only word on why.
        await sink.write("stderr", new TextEncoder().encode(`cubicle: ${error}\n`));
        return { status: "failed", exitCode: exitCodes.refused, error };
      }
      let computer: Awaited<ReturnType<ComputerLink["computer"]>>;
      try {
        computer = await link.computer();
      } catch (error) {
        return {
          status: "failed",
          exitCode: exitCodes.notStarted,
          error: `the container did not start: ${(error as Error).message}`,
        };
      }
      const egress = request.egress ? options.egress : null;
      const outcome = await computer.exec(
        {
          execId: request.execId,
          command: request.command ?? "",
          cwd: request.cwd,
          env: request.env,
          stdin: request.stdin,
          timeoutMs: request.timeoutMs,
          outputBytesMax: request.outputBytesMax,
          egress: egress !== null,
          allow: egress?.allow ?? null,
          ...(request.resources ? { resources: request.resources } : {}),
          ...(request.user ? { user: request.user } : {}),
          revision: options.revision(),
        },
        new SinkTarget(sink),
      );
      if (egress) await meterEgress(egress, request.execId, outcome.egressBytes);
      return {
        status: outcome.status,
        exitCode: outcome.exitCode,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
        ...(outcome.mount !== undefined ? { mount: outcome.mount } : {}),
        ...(outcome.conflicts?.length ? { conflicts: keptConflicts(outcome.conflicts) } : {}),
        ...(outcome.tail?.length ? { tail: keptTail(outcome.tail, request.outputBytesMax) } : {}),
      };
    },

    /**
     * Connects before the run is recorded, so a computer that cannot start yet (its root
     * image still building) refuses the request instead of failing a run. The session is
     * kept, and `run` reuses it.
     */
    async ready(): Promise<ExecutorReadiness> {
      if (options.pathPrefix !== null) return { ok: true };
      try {
        await link.computer();
        return { ok: true };
      } catch (error) {
        if (error instanceof ComputerStarting) {
          return { ok: false, retryAfterSeconds: error.retryAfterSeconds, message: error.message };
        }
        // Any other failure is the run's to report (`exitCodes.notStarted`), as when it happens later.
        return { ok: true };
      }
    },

    async kill(execId: string): Promise<void> {
      const computer = await link.computer().catch(() => null);
      await computer?.kill(execId).catch(() => {});
    },
  };
}

/**
 * The conflicts computerd reported, as the run's record keeps them: well-formed entries only,
 * the first conflictsMax, within conflictPathCharsMax characters of paths.
 */
function keptConflicts(reported: unknown[]): ExecConflict[] {
  const kept: ExecConflict[] = [];
  let chars = 0;
  for (const item of reported.slice(0, containerLimits.conflictsMax)) {
    const { path, savedAs } = (item ?? {}) as { path?: unknown; savedAs?: unknown };
    if (typeof path !== "string" || (savedAs !== null && typeof savedAs !== "string")) continue;
    chars += path.length + (savedAs?.length ?? 0);
    if (chars > containerLimits.conflictPathCharsMax) break;
    kept.push({ path, savedAs });
  }
  return kept;
}

/**
 * The output computerd handed back with the outcome (container/wire/outputPump.ts): well-formed
 * pieces only, at most the run's output bytes in all (the record caps what it stores too).
 */
function keptTail(reported: unknown[], bytesMax: number): OutputPiece[] {
  const kept: OutputPiece[] = [];
  let bytes = 0;
  for (const item of reported) {
    const { stream, data } = (item ?? {}) as { stream?: unknown; data?: unknown };
    if ((stream !== "stdout" && stream !== "stderr") || !(data instanceof Uint8Array)) continue;
    if (bytes + data.byteLength > bytesMax) break;
    bytes += data.byteLength;
    kept.push({ stream, data });
  }
  return kept;
}

/**
 * Bills what computerd counted. A computerd that predates the field sends nothing, and a
 * number that is not a whole count of bytes is not billed: both are logged, never thrown, so
 * the run's own outcome stands. A failed recording is logged the same way, as the gateway does.
 */
async function meterEgress(egress: ContainerEgress, execId: string, bytes: unknown): Promise<void> {
  if (bytes === 0) return;
  if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) {
    console.error("egress metering skipped: computerd reported no byte count", execId, bytes);
    return;
  }
  await egress.record(bytes).catch((error) => console.error("egress metering failed", execId, error));
}
