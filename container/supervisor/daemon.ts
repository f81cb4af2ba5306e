/**
 * One computerd process in its own mount and pid namespace, from spawn to proven gone.
 *
 * The launch is `setpriv --pdeathsig KILL -- unshare --mount --pid --fork --mount-proc
 * --kill-child --propagation private -- <command>`:
 * - `--propagation private` keeps the daemon's FUSE mount at /workspace inside its mount
 *   namespace; the host and the other daemons never see it.
 * - `--pid --fork --mount-proc` makes the daemon PID 1 of a new pid namespace, so when it
 *   exits the kernel kills everything else in there: commands it started cannot outlive it.
 * - `--kill-child` and `setpriv --pdeathsig KILL` chain deaths upward: if the supervisor is
 *   killed outright, unshare dies, then the daemon, then its namespace. No daemon outlives
 *   the supervisor holding a mount.
 * unshare ignores SIGTERM while it waits, and a namespace's PID 1 ignores signals it has no
 * handler for, so a stop signals the daemon itself (which handles SIGTERM by unmounting).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { ComputerdReady } from "../wire/index.ts";
import { childrenOf, holdNamespaces, type Namespaces, processesIn, releaseNamespaces } from "./procfs.ts";

const LAUNCHER = [
  "setpriv",
  "--pdeathsig",
  "KILL",
  "--",
  "unshare",
  "--mount",
  "--pid",
  "--fork",
  "--mount-proc",
  "--kill-child",
  "--propagation",
  "private",
  "--",
];

export interface DaemonOptions {
  name: string;
  /** The daemon and its arguments, e.g. `[node, ".build/computerd/computerd.mjs"]`. */
  command: string[];
  env: NodeJS.ProcessEnv;
  startTimeoutMs: number;
  logTailLines: number;
  log: (line: string) => void;
}

export interface DaemonExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the supervisor asked for it (a stop), false for a crash. */
  requested: boolean;
}

export class DaemonStartError extends Error {}

export class Daemon {
  readonly startedAtMs = Date.now();
  /** Resolves once unshare exited, which happens after the daemon and its namespace ended. */
  readonly exited: Promise<DaemonExit>;
  private stopping: Promise<void> | null = null;
  private stopRequested = false;

  readonly name: string;
  /** The daemon's host pid (PID 1 inside its namespace). */
  readonly pid: number;
  readonly port: number;
  private readonly launcher: ChildProcess;
  private readonly namespaces: Namespaces;

  constructor(
    launcher: ChildProcess,
    ready: { name: string; pid: number; port: number; namespaces: Namespaces },
    exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  ) {
    this.launcher = launcher;
    this.name = ready.name;
    this.pid = ready.pid;
    this.port = ready.port;
    this.namespaces = ready.namespaces;
    this.exited = exit.then((e) => ({ ...e, requested: this.stopRequested }));
  }

  get isStopping(): boolean {
    return this.stopping !== null;
  }

  /**
   * SIGTERM, then SIGKILL after `graceMs`; resolves once no process is left in the daemon's
   * pid or mount namespace, so its mount is gone too. Concurrent calls share one stop.
   */
  stop(graceMs: number, verifyMs: number): Promise<void> {
    this.stopping ??= this.stopNow(graceMs, verifyMs);
    return this.stopping;
  }

  private async stopNow(graceMs: number, verifyMs: number): Promise<void> {
    this.stopRequested = true;
    this.signal("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"late">((done) => {
      timer = setTimeout(() => done("late"), graceMs);
    });
    const outcome = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (outcome === "late") {
      this.signal("SIGKILL");
      if (this.launcher.pid) kill(this.launcher.pid, "SIGKILL");
      await this.exited;
    }
    try {
      await emptied(this.namespaces, verifyMs);
    } finally {
      releaseNamespaces(this.namespaces);
    }
  }

  /** Signals the daemon only while unshare still holds it as its child, so a reused pid is never hit. */
  private signal(signal: NodeJS.Signals) {
    if (this.launcher.exitCode === null && this.launcher.pid && childrenOf(this.launcher.pid).includes(this.pid)) {
      kill(this.pid, signal);
    }
  }
}

function kill(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Waits until nothing is left in the namespaces. The kernel empties the pid namespace when
 * its PID 1 dies; a process that joined only the mount namespace (`nsenter -m`) would keep
 * the mount alive, so it is killed: anything in there belongs to the computer being stopped.
 */
async function emptied(namespaces: Namespaces, verifyMs: number): Promise<void> {
  const deadline = Date.now() + verifyMs;
  for (;;) {
    const left = processesIn(namespaces);
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes ${left.join(", ")} are still in the computer's namespace`);
    for (const pid of left) kill(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Spawns the daemon and resolves once its ready line arrived (see ComputerdReady). */
export function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const [file, ...args] = [...LAUNCHER, ...options.command];
  // Its own process group: a Ctrl-C meant for the supervisor's group must not reach the
  // daemons before the supervisor stops them in order.
  const launcher = spawn(file as string, args, { env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    launcher.on("exit", (code, signal) => done({ code, signal }));
    launcher.on("error", () => done({ code: null, signal: null }));
  });
  const tail: string[] = [];
  const prefix = `computerd ${options.name}:`;
  createInterface({ input: launcher.stderr as NodeJS.ReadableStream }).on("line", (line) => {
    options.log(`${prefix} ${line}`);
    tail.push(line);
    if (tail.length > options.logTailLines) tail.shift();
  });

  return new Promise<Daemon>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (launcher.pid) for (const pid of [...childrenOf(launcher.pid), launcher.pid]) kill(pid, "SIGKILL");
      const detail = tail.length ? `${why}; its last output:\n${tail.join("\n")}` : why;
      void exit.then(() => reject(new DaemonStartError(detail)));
    };
    const timer = setTimeout(() => fail(`no ready line within ${options.startTimeoutMs} ms`), options.startTimeoutMs);
    launcher.on("error", (error) => fail(`could not spawn ${file}: ${error.message}`));
    void exit.then(({ code, signal }) => fail(`it exited (${signal ?? code}) before its ready line`));

    createInterface({ input: launcher.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const ready = settled ? null : parseReady(line);
      if (!ready) return options.log(`${prefix} ${line}`);
      const pid = launcher.pid ? childrenOf(launcher.pid)[0] : undefined;
      const namespaces = pid ? holdNamespaces(pid) : null;
      if (!pid || !namespaces) return fail("its ready line came but its process was not found");
      settled = true;
      clearTimeout(timer);
      resolve(new Daemon(launcher, { name: options.name, pid, port: ready.port, namespaces }, exit));
    });
  });
}

function parseReady(line: string): ComputerdReady | null {
  if (!line.startsWith("{")) return null;
  try {
    const value = JSON.parse(line) as Partial<ComputerdReady>;
    const portOk = Number.isInteger(value.port) && (value.port as number) > 0 && (value.port as number) < 65_536;
    return value.ready === true && portOk ? (value as ComputerdReady) : null;
  } catch {
    return null;
  }
}
