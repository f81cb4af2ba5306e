/**
 * One command's cgroups (`<computer>/cmd-<execId>` in every controller the computer has),
 * holding the same limits as its computer, so its own counters say whether this command
 * hit a limit, whatever its neighbours did. The runner's launcher joins them before it
 * drops privileges; everything the command starts stays in them, so `kill` reaches what a
 * double fork or setsid took out of the command's process group.
 */
import { join } from "node:path";
import type { ExecStopReason } from "../../wire/index.ts";
import { cgroupLimits } from "../limits.ts";
import { killAll, readKeyedSync, removeCgroupDir } from "./cgroupfs.ts";
import type { V1Dirs } from "./cgroupLimitsV1.ts";

/** Which limit ended a command, as the exec outcome reports it. */
export type LimitHit = ExecStopReason;

/** The counters a command's limits are judged by, read when its cgroups were made (0 for fresh ones). */
export interface Baseline {
  oomKills: number;
  pidsMaxEvents: number;
}

export class CommandCgroup {
  /**
   * The `cgroup.procs` file of each of the command's cgroups. The launcher writes its own pid
   * into every one (`echo $$ > "$f" || exit 125`) before it execs the sandbox, so the command
   * starts inside them. No path contains whitespace or glob characters: a shell may split
   * the list on spaces.
   */
  readonly procsFiles: string[];
  readonly execId: string;
  private readonly v1: V1Dirs;
  private readonly dirs: string[];
  private readonly baseline: Baseline;
  /** Drops this command from its computer's list once its cgroups are gone. */
  private readonly forget: () => void;
  private readonly log: (message: string) => void;
  private killing: Promise<boolean> | null = null;

  constructor(execId: string, v1: V1Dirs, baseline: Baseline, forget: () => void, log: (message: string) => void) {
    this.execId = execId;
    this.v1 = v1;
    this.baseline = baseline;
    this.forget = forget;
    this.log = log;
    this.dirs = Object.values(v1).filter((dir) => dir !== undefined);
    this.procsFiles = this.dirs.map((dir) => join(dir, "cgroup.procs"));
  }

  /**
   * Whether the kernel OOM-killed a process of this command (memory_limit) or refused one of
   * its forks (pids_limit) since its cgroups were made. Memory wins when both happened: an OOM
   * kill ended a process, a refused fork only failed a call. Either counts limits hit by the
   * command itself or by the computer as a whole while this command asked for more.
   */
  limitHit(): LimitHit | null {
    if (this.v1.memory) {
      const oomKills = readKeyedSync(join(this.v1.memory, "memory.oom_control"), "oom_kill");
      if (oomKills !== null && oomKills > this.baseline.oomKills) return "memory_limit";
    }
    return this.pidsLimitEvents() > 0 ? "pids_limit" : null;
  }

  /** Forks and clones this command had refused by pids.max so far (a synchronous read of pids.events). */
  pidsLimitEvents(): number {
    if (!this.v1.pids) return 0;
    const events = readKeyedSync(join(this.v1.pids, "pids.events"), "max");
    return events === null ? 0 : Math.max(0, events - this.baseline.pidsMaxEvents);
  }

  /**
   * Polls the command's counters every pollIntervalMs and calls `onHit` once, with the first
   * limit hit. Returns the function that stops watching (call it when the command ends).
   */
  watch(onHit: (hit: LimitHit) => void): () => void {
    return this.poll(() => this.limitHit(), onHit);
  }

  /** Like `watch`, for the pids limit only: a command that hit it is killed (a fork bomb otherwise spins until its timeout). */
  watchPids(onHit: () => void): () => void {
    return this.poll(() => (this.pidsLimitEvents() > 0 ? "pids_limit" : null), onHit);
  }

  private poll(check: () => LimitHit | null, onHit: (hit: LimitHit) => void): () => void {
    let stopped = false;
    const timer = setInterval(() => {
      const hit = check();
      if (hit && !stopped) {
        stop();
        onHit(hit);
      }
    }, cgroupLimits.pollIntervalMs);
    timer.unref();
    const stop = () => {
      stopped = true;
      clearInterval(timer);
    };
    return stop;
  }

  /**
   * SIGKILLs everything in the command's cgroups (frozen first where the freezer is mounted)
   * and resolves once they are empty or emptyWaitMs passed. Safe to call at any time and more
   * than once; calls that overlap share one pass.
   */
  async kill(): Promise<void> {
    this.killing ??= killAll(this.dirs, this.v1.freezer ?? null).finally(() => {
      this.killing = null;
    });
    if (!(await this.killing))
      this.log(`cgroups: ${this.execId}: processes still alive ${cgroupLimits.emptyWaitMs} ms after SIGKILL`);
  }

  /**
   * Kills what is left, then removes the command's cgroups (waiting for them to empty, up to
   * emptyWaitMs). One that stays busy is logged and left; the computer's `remove` or the
   * next daemon start removes it. Never throws.
   */
  async remove(): Promise<void> {
    await this.kill();
    const left: string[] = [];
    for (const dir of this.dirs) if (!(await removeCgroupDir(dir))) left.push(dir);
    if (left.length) this.log(`cgroups: could not remove ${left.join(", ")}: still busy`);
    else this.forget();
  }
}
