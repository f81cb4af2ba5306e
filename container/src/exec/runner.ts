/**
 * Runs commands: each in its own box (../sandbox/box.ts) and its own process group, output
 * forwarded to the object's sink with back-pressure, a timeout that escalates from SIGTERM
 * to SIGKILL, and `kill` on request. When the process has ended, every change it made is
 * pushed before the outcome is returned, so the caller sees them on the object.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { constants as osConstants, tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import {
  type ContainerExecOutcome,
  type ContainerExecRequest,
  exitCodes,
  type OutputSinkApi,
} from "../../wire/index.ts";
import type { EgressRun } from "../egress/run.ts";
import { boxLimits, daemonLimits } from "../limits.ts";
import { type Box, type BoxLaunch, commandMessage } from "../sandbox/box.ts";
import type { CommandCgroup, LimitHit } from "../sandbox/cgroup.ts";
import type { ConflictLog } from "../sync/conflicts.ts";
import { trace } from "../trace.ts";
import { commandEnv } from "./env.ts";
import { forwardOutput } from "./output.ts";
import { fitsSpare, SpareBox, spareKey } from "./spare.ts";

export interface RunnerOptions {
  mount: string;
  /** Null when this daemon has no root image: commands are refused with a clear error. */
  box: Box | null;
  /** The compiled seccomp program, handed to bwrap on fd 3. */
  seccomp: Uint8Array;
  cgroupFor: (execId: string, request: ContainerExecRequest) => Promise<CommandCgroup | null>;
  egressFor: (execId: string, request: ContainerExecRequest) => Promise<EgressRun>;
  /** Pushes every dirty path; resolves with the object's revision. */
  flush: () => Promise<number>;
  /** The conflicts pushes met (sync/conflicts.ts), for the outcome of each command. */
  conflicts: ConflictLog;
  /** Called whenever a command starts, ends or produces output (for idleMs). */
  activity: () => void;
  log?: (line: string) => void;
}

interface StartedBox {
  child: ChildProcessWithoutNullStreams;
  cgroup: CommandCgroup | null;
  egress: EgressRun | null;
}

interface Running {
  pgid: number;
  cancel: () => void;
}

export class ExecRunner {
  private readonly opts: RunnerOptions;
  private readonly running = new Map<string, Running>();
  /** The box launched for the next command (./spare.ts), or the launch of it. */
  private spare: Promise<SpareBox | null> | null = null;
  private closed = false;

  constructor(opts: RunnerOptions) {
    this.opts = opts;
  }

  private log(line: string): void {
    this.opts.log?.(line);
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

  /** SIGKILLs every running command's process group and the spare box (daemon shutdown); resolves once the spare is gone. */
  killAll(): Promise<void> {
    this.closed = true;
    for (const r of this.running.values()) r.cancel();
    const spare = this.spare;
    this.spare = null;
    return spare ? spare.then((s) => s?.discard()) : Promise.resolve();
  }

  /**
   * Runs one command. Every outcome is returned after a flush, and carries the conflicts met
   * while the command ran or since the previous command answered (the changes of the box that
   * met a newer version on the object), so the caller hears of each.
   */
  async run(request: ContainerExecRequest, sink: OutputSinkApi): Promise<ContainerExecOutcome> {
    const mark = this.opts.conflicts.mark();
    const outcome = await this.runCommand(request, sink);
    this.prepareSpare(request);
    return { ...outcome, conflicts: this.opts.conflicts.since(mark) };
  }

  private async runCommand(request: ContainerExecRequest, sink: OutputSinkApi): Promise<ContainerExecOutcome> {
    const startedMs = Date.now();
    const failed = async (error: string, exitCode: number): Promise<ContainerExecOutcome> => ({
      status: "failed",
      exitCode,
      revision: await this.opts.flush(),
      durationMs: Date.now() - startedMs,
      egressBytes: 0,
      error,
    });
    const box = this.opts.box;
    if (!box) return failed("this computer has no root image to run commands in", exitCodes.refused);
    if (!isUnder(request.cwd, this.opts.mount))
      return failed(`cwd must be under ${this.opts.mount}`, exitCodes.refused);
    if (this.running.has(request.execId)) return failed(`exec ${request.execId} is already running`, exitCodes.refused);
    if (this.running.size >= daemonLimits.runningExecsMax)
      return failed("too many commands running", exitCodes.refused);
    if (request.stdin.byteLength > daemonLimits.stdinBytesMax) return failed("stdin too large", exitCodes.refused);
    if (hasNul(request)) return failed("the command, cwd and environment may not contain NUL bytes", exitCodes.refused);
    if (request.user !== undefined && request.user !== "user" && request.user !== "root") {
      return failed(`user must be "user" or "root"`, exitCodes.refused);
    }
    if (this.killedEarly.delete(request.execId)) {
      return {
        status: "cancelled",
        exitCode: exitCodes.killed,
        revision: await this.opts.flush(),
        durationMs: 0,
        egressBytes: 0,
      };
    }

    const cwd = boxLimits.workspace + request.cwd.slice(this.opts.mount.length);
    if (request.resources) await box.resize(request.resources.tmpBytesMax);
    const started = await this.startBox(box, request, cwd);
    if ("error" in started) return failed(started.error, started.exitCode);
    const { child, cgroup, egress } = started;
    const pgid = child.pid as number;

    let reason: "timeout" | "cancel" | LimitHit | null = null;
    let killTimer: NodeJS.Timeout | null = null;
    const killNow = () => {
      signalGroup(pgid, "SIGKILL");
      void cgroup?.kill();
    };
    const cancel = () => {
      reason ??= "cancel";
      killNow();
    };
    this.running.set(request.execId, { pgid, cancel });
    if (this.killedEarly.delete(request.execId)) cancel();
    // The kernel's OOM killer ends one process and a refused fork ends none, so the first hit
    // of either limit ends the whole command: the caller gets a clear reason at once, not a
    // half-dead command running on until its timeout.
    const unwatch = cgroup?.watch((hit) => {
      reason ??= hit;
      killNow();
    });
    this.opts.activity();
    const timeout = setTimeout(() => {
      reason ??= "timeout";
      signalGroup(pgid, "SIGTERM");
      killTimer = setTimeout(killNow, daemonLimits.killGraceMs);
    }, request.timeoutMs);

    child.stdin.on("error", () => {
      // A command that exits without reading its stdin closes the pipe under us; that is fine.
    });
    child.stdin.end(Buffer.from(request.stdin));
    const output = forwardOutput(
      child as unknown as ChildProcessWithoutNullStreams,
      sink,
      request.outputBytesMax,
      this.opts.activity,
    );

    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    trace("exec exited");
    clearTimeout(timeout);
    unwatch?.();
    // The box's pid 1 took everything in its namespace down with it (the kernel kills the
    // rest before pid 1's exit completes, and nothing can leave the namespace), so what the
    // cgroup may still list is exiting; the removal below kills it all the same.
    const tail = await output.done(daemonLimits.stdioDrainAfterExitMs);
    trace("exec output drained");
    if (killTimer) clearTimeout(killTimer);
    this.running.delete(request.execId);
    this.opts.activity();
    const egressBytes = (await egress?.close()) ?? 0;
    const hit = reason === "memory_limit" || reason === "pids_limit" ? reason : cgroup?.limitHit();
    // Not awaited: the counters are read, and the kill and rmdir may wait for the kernel to
    // release the exited tasks (up to 15 ms after a warm `echo hi`). A removal still pending
    // at shutdown is the computer's (or the next daemon's) to finish.
    void cgroup?.remove();

    const revision = await this.opts.flush();
    trace("exec flushed");
    const durationMs = Date.now() - startedMs;
    const base = { revision, durationMs, egressBytes, ...(tail.length > 0 ? { tail } : {}) };
    if (reason === "timeout")
      return { status: "timed_out", exitCode: exitCodes.timedOut, signal: exit.signal ?? undefined, ...base };
    if (reason === "cancel") return { status: "cancelled", exitCode: exitCodes.killed, signal: "SIGKILL", ...base };
    if (hit)
      return {
        status: "failed",
        exitCode: exitCodes.killed,
        signal: "SIGKILL",
        reason: hit,
        ...base,
        error: limitMessage[hit],
      };
    // bwrap reports a command killed by signal n as exit 128 + n, as a shell does.
    const exitCode = exit.code ?? 128 + signalNumber(exit.signal);
    return { status: exitCode === 0 ? "completed" : "failed", exitCode, ...base };
  }

  /**
   * This command's box, started: the spare when one fits (./spare.ts), else a fresh launch
   * with its own cgroups and, when asked, its egress proxy.
   */
  private async startBox(
    box: Box,
    request: ContainerExecRequest,
    cwd: string,
  ): Promise<StartedBox | { error: string; exitCode: number }> {
    const user = request.user ?? "user";
    const env = commandEnv(cwd, request.env, user);
    const message = commandMessage(cwd, request.command, env);
    const spare = await this.takeSpare(spareKey(request));
    if (spare && !request.egress && fitsSpare(message)) {
      spare.start(message);
      trace("exec started in a spare box");
      return { child: spare.child, cgroup: spare.cgroup, egress: null };
    }
    // Kept for the next command, unless another command's answer made a spare while this one
    // waited: one slot, so the later is dropped rather than left running unseen.
    if (spare && this.spare) void spare.discard();
    else if (spare) this.spare = Promise.resolve(spare);
    // A command is never run without the limits its computer has: no cgroups, no run.
    let cgroup: CommandCgroup | null;
    try {
      cgroup = await this.opts.cgroupFor(request.execId, request);
    } catch (error) {
      const reason = `the command's resource limits could not be set up: ${(error as Error).message}`;
      return { error: reason, exitCode: exitCodes.refused };
    }
    const egress = request.egress ? await this.opts.egressFor(request.execId, request) : null;
    const launch = box.launch({
      egressSocket: egress?.socketPath ?? null,
      egressBridge: egress?.bridge ?? null,
      cgroupProcs: cgroup?.procsFiles ?? [],
      user,
    });
    const withEgress = egress ? commandMessage(cwd, request.command, { ...env, ...egress.env }) : message;
    const child = await spawnBox(launch, this.opts.seccomp, withEgress);
    if (child instanceof Error) {
      await egress?.close();
      await cgroup?.remove();
      return { error: `spawn failed: ${child.message}`, exitCode: 127 };
    }
    trace("exec spawned");
    return { child, cgroup, egress };
  }

  /**
   * The spare, if there is one for this key and it is alive; one for another key is
   * discarded, since a fresh launch may change the computer's limits under it.
   */
  private async takeSpare(key: string): Promise<SpareBox | null> {
    const pending = this.spare;
    this.spare = null;
    const spare = pending ? await pending : null;
    if (!spare) return null;
    if (spare.key === key && spare.alive) return spare;
    void spare.discard();
    return null;
  }

  /** Launches the box for the next command like this one, after this one has answered. */
  private prepareSpare(request: ContainerExecRequest): void {
    const box = this.opts.box;
    if (!box || this.spare || this.closed) return;
    const user = request.user ?? "user";
    const key = spareKey(request);
    const made = new Promise<void>((resolve) => setImmediate(resolve)).then(async (): Promise<SpareBox | null> => {
      if (this.closed) return null;
      const id = `spare-${randomUUID()}`;
      const cgroup = await this.opts.cgroupFor(id, { ...request, execId: id });
      const launch = box.launchSpare({ cgroupProcs: cgroup?.procsFiles ?? [], user });
      const child = await spawnBox(launch, this.opts.seccomp, null);
      if (child instanceof Error) {
        await cgroup?.remove();
        return null;
      }
      const spare = new SpareBox(key, child, cgroup, (child.stdio as unknown[])[6] as Writable);
      if (this.closed) {
        await spare.discard();
        return null;
      }
      return spare;
    });
    this.spare = made.catch((error: Error) => {
      this.log(`exec: the next command's box could not be launched ahead: ${error.message}`);
      return null;
    });
  }
}

const limitMessage: Record<LimitHit, string> = {
  memory_limit: "the command was killed: it reached its computer's memory limit",
  pids_limit: "the command was killed: it reached its computer's process limit",
};

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? (osConstants.signals[signal] ?? 0) : 0;
}

/**
 * Spawns a launch detached (its own process group): pipes for stdio, the seccomp program
 * (fd 3) and bwrap's arguments (fd 4), the user namespace as fd 5, and the command's message
 * (`commandMessage`) on fd 6: for a fresh launch a file written beforehand (bash reads a file
 * in blocks and a pipe a byte at a time; the file is unlinked once the launch holds it), for
 * a spare (`message` null) the pipe it arrives on. Answers the child once it runs, or why it
 * did not.
 */
async function spawnBox(
  launch: BoxLaunch,
  seccomp: Uint8Array,
  message: Uint8Array | null,
): Promise<ChildProcessWithoutNullStreams | Error> {
  const [file, ...args] = launch.argv;
  const messageFile = message && join(tmpdir(), `cubicle-command-${randomUUID()}`);
  const messageFd = messageFile ? openSync(messageFile, "wx+", 0o600) : null;
  let child: ChildProcessWithoutNullStreams;
  try {
    // At offset 0 without moving the descriptor's own, which the box's bash reads from.
    if (message && messageFd !== null) writeSync(messageFd, message, 0, message.byteLength, 0);
    child = spawn(file as string, args, {
      cwd: "/",
      env: launch.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe", "pipe", launch.usernsFd, messageFd ?? "pipe"],
    }) as ChildProcessWithoutNullStreams;
  } finally {
    if (messageFd !== null) closeSync(messageFd);
    if (messageFile) unlinkSync(messageFile);
  }
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", (err) => resolve(err));
  });
  if (spawned || child.pid === undefined) return spawned ?? new Error("no pid");
  feed(child.stdio[3], seccomp);
  feed(child.stdio[4], launch.bwrapArgs);
  return child;
}

/** Writes a launch input (bwrap reads it to EOF) into one of the child's extra pipes. */
function feed(pipe: unknown, bytes: Uint8Array): void {
  const stream = pipe as NodeJS.WritableStream;
  stream.on("error", () => {});
  stream.end(bytes);
}

/** bwrap takes its arguments NUL-separated, so a NUL inside one would split it. */
function hasNul(request: ContainerExecRequest): boolean {
  const texts = [request.command, request.cwd, ...Object.entries(request.env).flat()];
  return texts.some((t) => t.includes("\0"));
}

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
