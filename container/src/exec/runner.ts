/**
 * Runs commands: `/bin/sh -c command` in its own process group, output forwarded to the
 * object's sink with back-pressure, a timeout that escalates from SIGTERM to SIGKILL, and
 * `kill` on request. When the process has ended, every change it made is pushed before the
 * outcome is returned, so the caller sees them on the object.
 */
import { spawn } from "node:child_process";
import { constants as osConstants } from "node:os";
import type { ContainerExecOutcome, ContainerExecRequest, OutputSinkApi } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { commandEnv } from "./env.ts";
import { forwardOutput } from "./output.ts";

export interface RunnerOptions {
  mount: string;
  home: string;
  /** Pushes every dirty path; resolves with the object's revision. */
  flush: () => Promise<number>;
  /** Called whenever a command starts, ends or produces output (for idleMs). */
  activity: () => void;
}

interface Running {
  pgid: number;
  cancel: () => void;
}

export class ExecRunner {
  private readonly opts: RunnerOptions;
  private readonly running = new Map<string, Running>();

  constructor(opts: RunnerOptions) {
    this.opts = opts;
  }

  get count(): number {
    return this.running.size;
  }

  /**
   * Kills that arrived before their command started: the object may send `kill` while the
   * exec is still waiting for a pull or for spawn (a run killed right after it was started
   * on a cold daemon), and such a kill must not be lost.
   */
  private readonly killedEarly = new Set<string>();

  kill(execId: string): void {
    const running = this.running.get(execId);
    if (running) {
      running.cancel();
      return;
    }
    this.killedEarly.add(execId);
    if (this.killedEarly.size > daemonLimits.earlyKillsKept) {
      this.killedEarly.delete(this.killedEarly.values().next().value as string);
    }
  }

  /** SIGKILLs every running command's process group (daemon shutdown). */
  killAll(): void {
    for (const r of this.running.values()) signalGroup(r.pgid, "SIGKILL");
  }

  async run(request: ContainerExecRequest, sink: OutputSinkApi): Promise<ContainerExecOutcome> {
    const startedMs = Date.now();
    const failed = async (error: string, exitCode: number): Promise<ContainerExecOutcome> => ({
      status: "failed",
      exitCode,
      revision: await this.opts.flush(),
      durationMs: Date.now() - startedMs,
      error,
    });
    if (!isUnder(request.cwd, this.opts.mount)) return failed(`cwd must be under ${this.opts.mount}`, 126);
    if (this.running.has(request.execId)) return failed(`exec ${request.execId} is already running`, 126);
    if (this.running.size >= daemonLimits.runningExecsMax) return failed("too many commands running", 126);
    if (request.stdin.byteLength > daemonLimits.stdinBytesMax) return failed("stdin too large", 126);
    if (this.killedEarly.delete(request.execId)) {
      return { status: "cancelled", exitCode: 137, revision: await this.opts.flush(), durationMs: 0 };
    }

    // The child changes into cwd itself: spawn's own chdir happens while this process waits
    // for the exec to succeed, and a chdir into the mount needs this process to answer FUSE.
    // The daemon runs with umask 0 (see daemon.ts); commands get the usual 022.
    const [file, ...args] = commandLine(request);
    const child = spawn(file as string, args, {
      cwd: "/",
      env: commandEnv(this.opts.home, request.cwd, request.env),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", (err) => resolve(err));
    });
    if (spawned || child.pid === undefined) return failed(`spawn failed: ${spawned?.message ?? "no pid"}`, 127);
    const pgid = child.pid;

    let reason: "timeout" | "cancel" | null = null;
    let killTimer: NodeJS.Timeout | null = null;
    const cancel = () => {
      reason ??= "cancel";
      signalGroup(pgid, "SIGKILL");
    };
    this.running.set(request.execId, { pgid, cancel });
    if (this.killedEarly.delete(request.execId)) cancel();
    this.opts.activity();
    const timeout = setTimeout(() => {
      reason ??= "timeout";
      signalGroup(pgid, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(pgid, "SIGKILL"), daemonLimits.killGraceMs);
    }, request.timeoutMs);

    child.stdin.on("error", () => {
      // A command that exits without reading its stdin closes the pipe under us; that is fine.
    });
    child.stdin.end(Buffer.from(request.stdin));
    const output = forwardOutput(child, sink, request.outputBytesMax, this.opts.activity);

    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    clearTimeout(timeout);
    await output.done(daemonLimits.stdioDrainAfterExitMs);
    if (killTimer) clearTimeout(killTimer);
    this.running.delete(request.execId);
    this.opts.activity();

    const revision = await this.opts.flush();
    const durationMs = Date.now() - startedMs;
    if (reason === "timeout")
      return { status: "timed_out", exitCode: 124, signal: exit.signal ?? undefined, revision, durationMs };
    if (reason === "cancel") return { status: "cancelled", exitCode: 137, signal: "SIGKILL", revision, durationMs };
    if (exit.signal) {
      const n = osConstants.signals[exit.signal] ?? 0;
      return { status: "failed", exitCode: 128 + n, signal: exit.signal, revision, durationMs };
    }
    const exitCode = exit.code ?? 1;
    return { status: exitCode === 0 ? "completed" : "failed", exitCode, revision, durationMs };
  }
}

/**
 * The argv that runs a request. A command without egress runs in a network namespace of its
 * own (`unshare --net`: no interface but loopback, which it brings up so local servers in
 * tests still work), so it cannot reach anything beyond the box — the same promise the
 * shell and javascript executors keep with `globalOutbound: null`. `unshare` execs in place,
 * so the pid (and the process group killed on timeout) stays the command's.
 */
function commandLine(request: ContainerExecRequest): string[] {
  const script = `${CLOSE_INHERITED_FDS} umask 022; cd -- "$1" || exit 126; exec /bin/sh -c "$2"`;
  const shell = ["/bin/bash", "-c", script, "sh", request.cwd, request.command];
  if (request.egress) return shell;
  const offline = `ip link set lo up 2>/dev/null; ${script}`;
  return ["unshare", "--net", "--", "/bin/bash", "-c", offline, "sh", request.cwd, request.command];
}

/**
 * Closes every descriptor above stderr before the command starts. libfuse opens /dev/fuse
 * without close-on-exec, so a command inherited the FUSE device: when the daemon died, a
 * command blocked on the mount held the device itself, the kernel kept waiting for an
 * answer only a holder could give, and the command sat in uninterruptible sleep forever —
 * and with it the pid namespace, so the supervisor never saw the daemon exit. Node cannot
 * set FD_CLOEXEC on a descriptor it did not open, hence bash (dash only redirects 0–9).
 */
const CLOSE_INHERITED_FDS =
  'for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-" 2>/dev/null; done;';

function isUnder(path: string, mount: string): boolean {
  if (!path.startsWith("/") || path.split("/").includes("..")) return false;
  return path === mount || path.startsWith(`${mount}/`);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}
