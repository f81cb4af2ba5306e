/**
 * What a run is and how it ends, as every side of the platform names it: the workspace
 * object, the three executors, computerd in the box, and the HTTP API's schemas. It lives in
 * container/wire because that is the one room every other may import (docs/rooms.md):
 * computerd reports these statuses and exit codes itself, so they cannot live above it.
 * executors/contract.ts re-exports the values, beside the executor names.
 *
 * Then the container's own part of the session contract (index.ts holds the rest): one
 * command's request, its resource limits and its outcome.
 */

/** How a run that has ended ended; a run still going is `running` in its record. */
export const EXEC_STATUSES = ["completed", "failed", "cancelled", "timed_out"] as const;
export type ExecStatus = (typeof EXEC_STATUSES)[number];

/**
 * The exit codes the platform gives a run itself, as a shell would report the same ending,
 * so a script that checks `$?` after a child reads them the same way.
 */
export const exitCodes = {
  /** Stopped at its timeout, as coreutils `timeout` reports it. */
  timedOut: 124,
  /** Never started: the sandbox did not come up, or the command could not be placed in it (as `timeout` reports a failure of its own). */
  notStarted: 125,
  /** Refused as asked (a bad working directory, a credential confined to a path, a busy computer), as a shell reports a command it cannot execute. */
  refused: 126,
  /** Killed: on request, at a resource limit, or when the workspace restarted under it (128 + SIGKILL, as `kill -9`). */
  killed: 137,
} as const;

/** Which resource limit of the container's sandbox ended a run (its cgroup's memory or process limit); the run exits `exitCodes.killed`. */
export const EXEC_STOP_REASONS = ["memory_limit", "pids_limit"] as const;
export type ExecStopReason = (typeof EXEC_STOP_REASONS)[number];

/** How computerd mounts the workspace (docs/container-sync.md); health and every exec outcome say which one ran. */
export const MOUNT_MODES = ["native", "fuse"] as const;
export type MountMode = (typeof MOUNT_MODES)[number];

/** Which of a run's two output streams a piece was written to. */
export type OutputStream = "stdout" | "stderr";

/** A piece of a run's output, in the order it was written. */
export interface OutputPiece {
  stream: OutputStream;
  data: Uint8Array;
}

/** Where a command's output goes; the object's durable exec record. `write` resolves when stored. */
export interface OutputSinkApi {
  write(stream: OutputStream, data: Uint8Array): Promise<void>;
}

export interface ContainerExecRequest {
  execId: string;
  /** Run by `/bin/sh -c`. */
  command: string;
  /** Absolute, under the mount (`/workspace/...`). */
  cwd: string;
  /** Added to computerd's allow-listed environment (PATH, HOME, LANG, TERM, TZ…). */
  env: Record<string, string>;
  stdin: Uint8Array;
  /** Past it: SIGTERM to the process group, SIGKILL `killGraceMs` later; status timed_out, exit 124. */
  timeoutMs: number;
  /** computerd stops forwarding output past this many bytes (stdout + stderr). */
  outputBytesMax: number;
  /**
   * Whether the command may reach the network: asked for by the run and allowed by the plan.
   * With it, the command's traffic leaves only through a proxy computerd starts for this exec
   * (container/src/egress), which refuses the platform's own network and meters the bytes;
   * without it, the command's box has no network at all.
   */
  egress: boolean;
  /**
   * The run's normalised allow list (./egress/allowList.ts): with egress, the proxy refuses
   * every host not on it. Null lets every public host through; ignored without egress.
   */
  allow: string[] | null;
  /**
   * The computer's limits under the tenant's plan. Every exec carries them, so a plan change
   * applies from the next command on. Absent only from an object older than this field:
   * computerd then keeps the limits it has (its defaults before the first request).
   */
  resources?: ContainerResources;
  /**
   * Who the command runs as in its box: `user` (uid 1000, the default, also when absent) or
   * `root` (uid 0 of the computer's user namespace: it owns and may chown the box's files and
   * switch to any box uid, with Docker's default capabilities, and is still an unprivileged
   * host uid of the computer's own range; docs/container-sandbox.md).
   */
  user?: "user" | "root";
  /**
   * The workspace's revision when the object sent the run. computerd pulls at least that far
   * before the command starts, so the command sees every change acknowledged before it was
   * asked for: a `changed` notice can still be on the wire behind an earlier one (the object
   * keeps one in flight) when the run overtakes it. Absent from an older object: computerd
   * then waits only for the pulls its notices started.
   */
  revision?: number;
}

/**
 * A computer's resource limits, as the tenant's plan sets them (tenants/account/plans.ts).
 * computerd enforces the first three with cgroups (container/src/sandbox/cgroup.ts) and the
 * last with the size of the box's tmpfs mounts. The first three are shared by every command
 * the computer runs at once, and each single command may use all of them.
 */
export interface ContainerResources {
  /**
   * Memory of the computer's commands together, page cache and tmpfs pages included, with no
   * swap beyond it. Past it the kernel kills a process of the command that asked; computerd
   * ends that command with exit 137 and reason `memory_limit`.
   */
  memoryBytesMax: number;
  /** Processes and threads at once. A command whose fork or clone fails on it is killed: exit 137, reason `pids_limit`. */
  pidsMax: number;
  /** CPU time per wall-clock time, in thousandths of a core (1000 = one full core); past it the commands wait. */
  cpuMillicores: number;
  /** Size of the box's private /tmp and of its home, each. What they hold counts against memoryBytesMax as well. */
  tmpBytesMax: number;
}

export interface ContainerExecOutcome {
  status: ExecStatus;
  /** Exit status; 128 + n for a signal n; `exitCodes.timedOut` (124) on timeout; `exitCodes.killed` (137) when killed on request. */
  exitCode: number;
  /** The signal that ended the process, if one did (SIGKILL…). */
  signal?: string;
  /** The object's revision once every change the command made was applied there. */
  revision: number;
  /** How long the command ran, for `container_ms`. */
  durationMs: number;
  /**
   * Bytes that crossed this exec's egress proxy, both ways, for `egress_bytes`: what it
   * relayed through CONNECT tunnels after its 200 (TLS records included) plus the request and
   * response bodies of plain http requests; never a refused request, the headers, or TCP/IP
   * overhead (container/src/egress/proxy.ts says exactly). 0 without egress.
   */
  egressBytes: number;
  /** Set when a limit of the computer ended the command (exit 137): which one. */
  reason?: ExecStopReason;
  /** How the workspace was mounted while the command ran. Absent from a computerd older than this field. */
  mount?: MountMode;
  /**
   * Changes of the container that met a newer version on the object while this command ran
   * (or since the last command answered), oldest first: the object's version stayed at
   * `path`, the container's is at `savedAs` (null: a removal or mode change, dropped).
   */
  conflicts?: { path: string; savedAs: string | null }[];
  /**
   * Output the command wrote that the sink had not been sent when it ended (at most
   * `outputPumpLimits.tailBytesMax`), in order after everything the sink took: a short
   * command's output costs no call back to the object. Absent from a computerd older than this field.
   */
  tail?: OutputPiece[];
  error?: string;
}
