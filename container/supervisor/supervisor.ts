/**
 * The local stand-in for Cloudflare Containers: one computerd per workspace, each in its
 * own mount and pid namespace (daemon.ts), started on demand, restarted after a crash,
 * stopped when idle, when evicted for room, on request, or when the supervisor stops.
 *
 * Per computer there is at most one daemon and at most one start or stop in flight:
 * concurrent `ensure`s share one start (`starting`), concurrent `stop`s share one stop
 * (`stopping`), and an `ensure` that meets a stop waits for it and then starts afresh.
 * A computer holds a slot from admission until its processes are proven gone, so the cap
 * counts what really runs.
 */
import { mkdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { COMPUTERD_ENV } from "../wire/index.ts";
import { type Daemon, type DaemonExit, startDaemon } from "./daemon.ts";
import { SupervisorError } from "./errors.ts";
import { type HealthReading, idleForMs, readHealth } from "./health.ts";
import type { ImageStatus, RootImage } from "./image.ts";
import { daemonMallocEnv, supervisorLimits } from "./limits.ts";
import { isComputerName, stateDirFor } from "./names.ts";

type Tunable = Exclude<keyof typeof supervisorLimits, "requestHeaderBytesMax" | "nameCharsMax">;

export interface SupervisorOptions extends Partial<Record<Tunable, number>> {
  /** The daemon and its arguments: `[node, ".build/computerd/computerd.mjs"]` or a stand-in. */
  command: string[];
  /** COMPUTERD_SECRET, handed to every daemon. */
  secret: string;
  /** Daemon state lives in `<stateRoot>/computers/<hash of name>`. */
  stateRoot: string;
  /** COMPUTERD_MOUNT. Default /workspace. */
  mount?: string;
  /**
   * The box's root image (image.ts), handed to every daemon as COMPUTERD_ROOTFS; no computer
   * starts before it is ready. Absent only for stand-in daemons that run no command.
   */
  image?: RootImage;
  /** The native mode's fanotify helper (container/native), handed to every daemon; absent: daemons use FUSE. */
  fanotifyBin?: string;
  /** The device-node supervisor (container/native/mknod), handed to every daemon; absent: device nodes are refused. */
  mknodBin?: string;
  log?: (line: string) => void;
}

/** What the API answers for a running computer. */
export interface ComputerInfo {
  name: string;
  port: number;
  /** The daemon's host pid (it is PID 1 inside its namespace). */
  pid: number;
  /** ISO 8601; a crash restart starts a new daemon, so this moves. */
  startedAt: string;
  /** Crash restarts since this computer was first started. */
  restarts: number;
}

interface Computer {
  name: string;
  stateDir: string;
  daemon: Daemon | null;
  starting: Promise<Daemon> | null;
  stopping: Promise<void> | null;
  restartTimer: NodeJS.Timeout | null;
  restarts: number;
  restartTimesMs: number[];
  lastEnsuredMs: number;
  /** The first host uid of its boxes' range (COMPUTERD_BOX_UID): no two computers' ranges overlap (boxUidFree). */
  boxUid: number;
}

export class Supervisor {
  private readonly computers = new Map<string, Computer>();
  private readonly limits: Record<Tunable, number>;
  private readonly mount: string;
  private readonly log: (line: string) => void;
  private readonly pollTimer: NodeJS.Timeout;
  private admitting: Promise<unknown> = Promise.resolve();
  private polling = false;
  private closing: Promise<void> | null = null;

  private readonly options: SupervisorOptions;

  constructor(options: SupervisorOptions) {
    const { command, secret, stateRoot, mount, log, image, ...overrides } = options;
    this.options = options;
    this.limits = { ...supervisorLimits, ...overrides };
    this.mount = mount ?? "/workspace";
    this.log = log ?? ((line) => console.error(line));
    // Only a mount point on the host: each daemon mounts over it inside its own namespace.
    mkdirSync(this.mount, { recursive: true });
    this.pollTimer = setInterval(() => void this.stopIdle(), this.limits.healthPollMs);
    this.pollTimer.unref();
  }

  /** Starts the computer unless it runs; resolves once its daemon printed its ready line. */
  async ensure(name: string): Promise<ComputerInfo> {
    if (!isComputerName(name)) {
      throw new SupervisorError("invalid_name", "a computer is named `<tenantId>:<workspaceId>`");
    }
    for (;;) {
      if (this.closing) throw new SupervisorError("shutting_down", "the supervisor is stopping");
      const computer = this.computers.get(name);
      if (computer?.stopping) {
        await computer.stopping.catch(() => {});
      } else if (computer) {
        computer.lastEnsuredMs = Date.now();
        return this.info(computer, await this.running(computer));
      } else {
        // Before a slot is taken: while the image builds, the answer is "later", not a failed start.
        this.options.image?.require();
        await this.admit(name);
      }
    }
  }

  /** Stops the computer and resolves once its processes and mount are gone; false if it was not running. */
  async stop(name: string): Promise<boolean> {
    const computer = this.computers.get(name);
    if (!computer) return false;
    computer.stopping ??= this.stopComputer(computer);
    await computer.stopping;
    return true;
  }

  /**
   * Stops the computer and deletes its replica and state: the workspace is gone, and its
   * files must not outlive it on this machine's disk.
   */
  async purge(name: string): Promise<void> {
    await this.stop(name);
    await rm(stateDirFor(this.options.stateRoot, name), { recursive: true, force: true });
  }

  /** Where the box image stands, or null when this supervisor has none. */
  imageStatus(): ImageStatus | null {
    return this.options.image?.status() ?? null;
  }

  list(): ComputerInfo[] {
    const running = [...this.computers.values()].filter((c) => c.daemon && !c.stopping);
    return running.map((c) => this.info(c, c.daemon as Daemon));
  }

  /** Stops every computer; no new one starts after this is called. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.pollTimer);
      await Promise.allSettled([...this.computers.keys()].map((name) => this.stop(name)));
    })();
    return this.closing;
  }

  private info(computer: Computer, daemon: Daemon): ComputerInfo {
    const { name, restarts } = computer;
    return {
      name,
      port: daemon.port,
      pid: daemon.pid,
      startedAt: new Date(daemon.startedAtMs).toISOString(),
      restarts,
    };
  }

  /**
   * Gives a new computer a slot, evicting the least recently used idle one when all are
   * taken. Admissions run one at a time so two of them never pick the same victim or both
   * take the last slot.
   */
  private admit(name: string): Promise<void> {
    const turn = this.admitting.then(async () => {
      if (this.computers.has(name) || this.closing) return;
      if (this.computers.size >= this.limits.computersMax) await this.evictOne();
      this.computers.set(name, {
        name,
        stateDir: stateDirFor(this.options.stateRoot, name),
        daemon: null,
        starting: null,
        stopping: null,
        restartTimer: null,
        restarts: 0,
        restartTimesMs: [],
        lastEnsuredMs: Date.now(),
        boxUid: this.boxUidFree(),
      });
    });
    this.admitting = turn.catch(() => {});
    return turn;
  }

  /**
   * The lowest range of box uids no computer holds. Each computer's boxes map box uids
   * 0–65535 onto a host range of their own (container/src/sandbox/userns.ts), so commands of
   * two workspaces never share a host uid, nor with it a file's ownership or the kernel's
   * per-user counts (inotify instances, user namespaces, RLIMIT_NPROC) that one tenant could
   * otherwise exhaust for another.
   */
  private boxUidFree(): number {
    const taken = new Set([...this.computers.values()].map((c) => c.boxUid));
    let uid = supervisorLimits.boxUidBase;
    while (taken.has(uid)) uid += supervisorLimits.boxUidsPerComputer;
    return uid;
  }

  private async evictOne(): Promise<void> {
    const all = [...this.computers.values()];
    // One already on its way out frees a slot without stopping anybody else.
    const leaving = all.find((c) => c.stopping);
    if (leaving) return void (await leaving.stopping?.catch(() => {}));
    const candidates = all.filter((c) => c.daemon && !c.starting);
    const healths = await Promise.all(candidates.map((c) => this.health(c)));
    let victim: Computer | undefined;
    let victimIdleMs = -1;
    candidates.forEach((computer, i) => {
      const idleMs = idleForMs(healths[i] ?? null, computer.lastEnsuredMs);
      if (idleMs !== null && idleMs > victimIdleMs) [victim, victimIdleMs] = [computer, idleMs];
    });
    if (!victim) {
      throw new SupervisorError("capacity", `all ${this.limits.computersMax} computers are busy; try again later`);
    }
    this.log(`supervisor: stopping ${victim.name} (idle ${victimIdleMs} ms) to make room`);
    await this.stop(victim.name);
  }

  private running(computer: Computer, restart = false): Promise<Daemon> {
    if (computer.daemon) return Promise.resolve(computer.daemon);
    if (computer.restartTimer) clearTimeout(computer.restartTimer);
    computer.restartTimer = null;
    computer.starting ??= this.launch(computer, restart).finally(() => {
      computer.starting = null;
    });
    return computer.starting;
  }

  private async launch(computer: Computer, restart: boolean): Promise<Daemon> {
    try {
      await mkdir(computer.stateDir, { recursive: true });
      const daemon = await startDaemon({
        name: computer.name,
        command: this.options.command,
        env: this.daemonEnv(computer),
        startTimeoutMs: this.limits.startTimeoutMs,
        logTailLines: this.limits.logTailLines,
        log: this.log,
      });
      computer.daemon = daemon;
      void daemon.exited.then((exit) => this.onExit(computer, daemon, exit));
      return daemon;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.log(`supervisor: starting ${computer.name} failed: ${detail}`);
      // A first start that fails is usually deterministic (a bad bundle, a failed mount), so
      // it is not retried: the slot is freed and the next ensure tries afresh. A restart that
      // fails counts as one more crash of a computer that did run.
      if (!restart || !this.scheduleRestart(computer)) this.forget(computer);
      throw new SupervisorError("start_failed", `computerd for ${computer.name} did not start: ${detail}`);
    }
  }

  private daemonEnv(computer: Computer): NodeJS.ProcessEnv {
    // Nothing meant for the supervisor or another daemon leaks in from our own environment.
    const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("COMPUTERD_")));
    return {
      ...base,
      ...daemonMallocEnv,
      [COMPUTERD_ENV.workspace]: computer.name,
      [COMPUTERD_ENV.secret]: this.options.secret,
      // The host network is shared locally, so each daemon picks a free port and reports it.
      [COMPUTERD_ENV.port]: "0",
      [COMPUTERD_ENV.host]: "127.0.0.1",
      [COMPUTERD_ENV.stateDir]: computer.stateDir,
      [COMPUTERD_ENV.mount]: this.mount,
      ...(this.options.image ? { [COMPUTERD_ENV.rootfs]: this.options.image.require() } : {}),
      [COMPUTERD_ENV.boxUid]: String(computer.boxUid),
      ...(this.options.fanotifyBin ? { [COMPUTERD_ENV.fanotifyBin]: this.options.fanotifyBin } : {}),
      ...(this.options.mknodBin ? { [COMPUTERD_ENV.mknodBin]: this.options.mknodBin } : {}),
      // Which workspace mount computerd makes (native or fuse), when the operator chose one;
      // passed through, as the trace switch below is: nothing else of the supervisor's COMPUTERD_* environment is.
      ...(process.env[COMPUTERD_ENV.mountMode]
        ? { [COMPUTERD_ENV.mountMode]: process.env[COMPUTERD_ENV.mountMode] }
        : {}),
      // The daemons' step timestamps, when whoever started the platform asked for them.
      ...(process.env[COMPUTERD_ENV.trace] === "1" ? { [COMPUTERD_ENV.trace]: "1" } : {}),
      // The benchmark's scratch disk for the box (bench/container.bench.ts), the same way.
      ...(process.env[COMPUTERD_ENV.boxScratch]
        ? { [COMPUTERD_ENV.boxScratch]: process.env[COMPUTERD_ENV.boxScratch] }
        : {}),
    };
  }

  /** A daemon that exits without being asked to is restarted, with backoff, unless it crash-loops. */
  private async onExit(computer: Computer, daemon: Daemon, exit: DaemonExit) {
    if (exit.requested || computer.daemon !== daemon) return;
    computer.daemon = null;
    this.log(`supervisor: computerd for ${computer.name} exited unasked (${exit.signal ?? exit.code})`);
    // Kills whatever joined its mount namespace only, so the old mount is surely gone.
    await daemon.stop(0, this.limits.stopVerifyMs).catch((e) => this.log(`supervisor: ${e}`));
    if (this.computers.get(computer.name) === computer && !this.scheduleRestart(computer)) this.forget(computer);
  }

  /**
   * Starts the computer again after a delay that doubles with each recent restart; false
   * when it restarted restartsPerMinuteMax times within the last minute (a crash loop,
   * given up on) or is being stopped anyway.
   */
  private scheduleRestart(computer: Computer): boolean {
    if (this.closing || computer.stopping) return false;
    const nowMs = Date.now();
    computer.restartTimesMs = computer.restartTimesMs.filter((t) => nowMs - t < 60_000);
    if (computer.restartTimesMs.length >= this.limits.restartsPerMinuteMax) {
      this.log(
        `supervisor: ${computer.name} failed ${computer.restartTimesMs.length + 1} times in a minute; giving up`,
      );
      return false;
    }
    computer.restartTimesMs.push(nowMs);
    computer.restarts += 1;
    const backoffMs = this.limits.restartBackoffMs * 2 ** (computer.restartTimesMs.length - 1);
    computer.restartTimer = setTimeout(
      () => void this.running(computer, true).catch(() => {}),
      Math.min(backoffMs, this.limits.restartBackoffMsMax),
    );
    return true;
  }

  private async stopComputer(computer: Computer): Promise<void> {
    if (computer.restartTimer) clearTimeout(computer.restartTimer);
    computer.restartTimer = null;
    try {
      await computer.starting?.catch(() => {});
      await computer.daemon?.stop(this.limits.stopGraceMs, this.limits.stopVerifyMs);
    } catch (error) {
      throw new SupervisorError("stop_failed", `stopping ${computer.name}: ${error}`);
    } finally {
      this.forget(computer);
    }
  }

  private forget(computer: Computer) {
    if (computer.restartTimer) clearTimeout(computer.restartTimer);
    if (this.computers.get(computer.name) === computer) this.computers.delete(computer.name);
  }

  private async health(computer: Computer): Promise<HealthReading | null> {
    const port = computer.daemon?.port;
    return port ? readHealth(port, this.options.secret, this.limits.healthTimeoutMs) : null;
  }

  /** Stops every computer idle longer than idleMsMax with nothing running. */
  private async stopIdle() {
    if (this.polling || this.closing) return;
    this.polling = true;
    try {
      const running = [...this.computers.values()].filter((c) => c.daemon && !c.starting && !c.stopping);
      await Promise.all(
        running.map(async (computer) => {
          const idleMs = idleForMs(await this.health(computer), computer.lastEnsuredMs);
          if (idleMs === null || idleMs <= this.limits.idleMsMax || computer.stopping) return;
          this.log(`supervisor: stopping ${computer.name}, idle ${idleMs} ms`);
          await this.stop(computer.name).catch((e) => this.log(`supervisor: ${e}`));
        }),
      );
    } finally {
      this.polling = false;
    }
  }
}
