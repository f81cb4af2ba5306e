/**
 * A computer's cgroups: the memory, process and CPU limits of its tenant's plan, for every
 * command the computer runs (docs/container-cgroups.md).
 *
 * Layout, under the daemon's own cgroup in each controller (cgroupfs.ts finds it):
 *
 *   <own>/cubicle-<name>/            the computer: its limits bound all its commands together
 *   <own>/cubicle-<name>/cmd-<id>/   one command: the same limits, and its own counters
 *
 * in memory, pids and cpu (limits) and freezer (an atomic kill), on cgroup v1. cgroup v2 is
 * detected and refused with a log line: its controllers could not be tested on the machine
 * this was built on (the doc lists what would change). Without usable cgroups the daemon
 * still runs, unlimited, and says so.
 */
import { mkdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { ContainerResources } from "../../wire/index.ts";
import { CommandCgroup } from "./cgroupCommand.ts";
import { childCgroups, killAll, locateOwnCgroups, type OwnCgroups, readKeyed, removeCgroupDir } from "./cgroupfs.ts";
import { applyLimits, assertResources, setCpu, type V1Dirs } from "./cgroupLimitsV1.ts";

export type { CommandCgroup, LimitHit } from "./cgroupCommand.ts";

export interface CgroupOptions {
  log?: (message: string) => void;
  /** Where the daemon's own cgroups are; read from /proc/self when absent (tests hand in others). */
  own?: OwnCgroups;
}

/** Names become directory names, and the launcher's shell splits the list of paths on spaces. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}$/;
const SAFE_PATH = /^[A-Za-z0-9_./:-]+$/;
const COMPUTER_PREFIX = "cubicle-";
const COMMAND_PREFIX = "cmd-";

const stderrLog = (message: string) => process.stderr.write(`computerd: ${message}\n`);

async function ownCgroups(): Promise<OwnCgroups> {
  const [mountinfo, procCgroup] = await Promise.all([
    readFile("/proc/self/mountinfo", "utf8"),
    readFile("/proc/self/cgroup", "utf8"),
  ]);
  return locateOwnCgroups(mountinfo, procCgroup);
}

/**
 * Makes (or takes over, after a daemon restart) the cgroups of computer `name` with `limits`,
 * or resolves null, with a log line saying why, where this host gives none: no cgroupfs,
 * cgroup v2, no memory or pids controller, or a hierarchy this process cannot write. Throws
 * only on a bad name or limits (a bug in the caller).
 */
export async function openComputerCgroups(
  name: string,
  limits: ContainerResources,
  options: CgroupOptions = {},
): Promise<ComputerCgroups | null> {
  if (!SAFE_NAME.test(name)) throw new RangeError(`computer name ${JSON.stringify(name)} is not a safe cgroup name`);
  assertResources(limits);
  const log = options.log ?? stderrLog;
  const own = options.own ?? (await ownCgroups());
  if (!own.v1.memory || !own.v1.pids) {
    log(`cgroups: ${await whyNone(own)}; commands run without memory, pids or CPU limits`);
    return null;
  }
  const dirs: V1Dirs = {};
  for (const [controller, ownDir] of Object.entries(own.v1) as [keyof V1Dirs, string][]) {
    dirs[controller] = join(ownDir, COMPUTER_PREFIX + name);
  }
  const unsafe = Object.values(dirs).find((dir) => !SAFE_PATH.test(dir));
  if (unsafe) {
    log(`cgroups: ${unsafe} has characters a launcher's shell would split; commands run without limits`);
    return null;
  }
  if (!dirs.cpu) log("cgroups: no cpu controller: commands run without a CPU limit");
  if (!dirs.freezer)
    log("cgroups: no freezer controller: kill signals a command's processes without freezing them first");
  const computer = new ComputerCgroups(name, dirs, limits, log);
  try {
    await computer.prepare();
  } catch (error) {
    log(`cgroups: cannot set up ${name}: ${(error as Error).message}; commands run without limits`);
    await computer.remove();
    return null;
  }
  return computer;
}

async function whyNone(own: OwnCgroups): Promise<string> {
  if (own.unified !== null) {
    const controllers = await readFile(join(own.unified, "cgroup.controllers"), "utf8").catch(() => "");
    if (/\bmemory\b/.test(controllers) && /\bpids\b/.test(controllers)) {
      return `cgroup v2 at ${own.unified} is not supported yet (docs/container-cgroups.md says what it needs)`;
    }
  }
  return "no cgroup v1 memory and pids hierarchies are mounted";
}

export class ComputerCgroups {
  readonly version = "v1";
  readonly name: string;
  private readonly v1: V1Dirs;
  private readonly log: (message: string) => void;
  private readonly commands = new Map<string, CommandCgroup>();
  /** Exec ids whose cgroups are being made: a second forCommand for one must not clear the first's. */
  private readonly starting = new Set<string>();
  /** The limits the next command gets; the computer's own cgroup follows them where the kernel lets it. */
  private limits: ContainerResources;

  constructor(name: string, v1: V1Dirs, limits: ContainerResources, log: (message: string) => void) {
    this.name = name;
    this.v1 = v1;
    this.limits = limits;
    this.log = log;
  }

  /** The computer's cgroup directory in each controller (for logs and tests). */
  get dirs(): string[] {
    return Object.values(this.v1).filter((dir) => dir !== undefined);
  }

  /** Makes the computer's cgroups (a previous daemon's are reused, their commands' removed) and applies its limits. */
  async prepare(): Promise<void> {
    // Not `recursive`: the daemon's own cgroup exists, and Node's recursive mkdir spins forever on /proc-like trees.
    for (const dir of this.dirs) await mkdir(dir).catch(ignoreExisting);
    await this.removeStaleCommands();
    await applyLimits(this.v1, this.limits, this.log);
  }

  /**
   * A new command's cgroups, `cmd-<execId>` in every controller, with the current limits.
   * Throws when they cannot be made (the runner should then refuse the command rather than
   * run it unbounded).
   */
  async forCommand(execId: string): Promise<CommandCgroup> {
    if (!SAFE_NAME.test(execId)) throw new RangeError(`exec id ${JSON.stringify(execId)} is not a safe cgroup name`);
    if (this.commands.has(execId) || this.starting.has(execId)) throw new Error(`exec ${execId} already has cgroups`);
    this.starting.add(execId);
    const dirs = this.commandDirs(execId);
    try {
      // A directory left by a crashed daemon would carry its old counters and processes.
      await removeCommandDirs(dirs);
      for (const dir of Object.values(dirs)) await mkdir(dir);
      await applyLimits(dirs, this.limits, this.log);
      const baseline = {
        oomKills: dirs.memory ? ((await readKeyed(join(dirs.memory, "memory.oom_control"), "oom_kill")) ?? 0) : 0,
        pidsMaxEvents: dirs.pids ? ((await readKeyed(join(dirs.pids, "pids.events"), "max")) ?? 0) : 0,
      };
      const command = new CommandCgroup(execId, dirs, baseline, () => this.commands.delete(execId), this.log);
      this.commands.set(execId, command);
      return command;
    } catch (error) {
      await removeCommandDirs(dirs);
      throw error;
    } finally {
      this.starting.delete(execId);
    }
  }

  private commandDirs(execId: string): V1Dirs {
    const dirs: V1Dirs = {};
    for (const [controller, dir] of Object.entries(this.v1) as [keyof V1Dirs, string][]) {
      dirs[controller] = join(dir, COMMAND_PREFIX + execId);
    }
    return dirs;
  }

  /** Command cgroups on disk that no live CommandCgroup owns: a previous daemon's, or ones that were busy at remove. */
  private async removeStaleCommands(): Promise<void> {
    const names = new Set<string>();
    for (const dir of this.dirs) {
      for (const child of await childCgroups(dir, COMMAND_PREFIX))
        names.add(basename(child).slice(COMMAND_PREFIX.length));
    }
    for (const id of names) if (!this.commands.has(id)) await removeCommandDirs(this.commandDirs(id));
  }

  /**
   * New limits (a plan change): every command started from now on gets them, and the
   * computer's own cgroup takes them at once where the kernel allows. Running commands keep
   * their memory and pids limits; their CPU quota is cut with the computer's, since v1
   * refuses a parent quota below a child's. A memory limit below what the computer uses now
   * cannot be set (EBUSY): it is logged and the computer keeps the old one, while each new
   * command still gets the new one.
   */
  async update(limits: ContainerResources): Promise<void> {
    assertResources(limits);
    const cpuCut = limits.cpuMillicores < this.limits.cpuMillicores;
    this.limits = limits;
    if (cpuCut && this.v1.cpu) {
      for (const id of this.commands.keys()) {
        await setCpu(join(this.v1.cpu, COMMAND_PREFIX + id), limits.cpuMillicores, this.log).catch(() => {});
      }
    }
    try {
      await applyLimits(this.v1, limits, this.log);
    } catch (error) {
      this.log(`cgroups: ${this.name}: new limits apply to new commands only for now: ${(error as Error).message}`);
    }
  }

  /**
   * Kills and removes every command's cgroups, then the computer's (daemon stop). Waits up to
   * emptyWaitMs per cgroup for it to empty; whatever stays busy is logged and left for the
   * next start. Never throws.
   */
  async remove(): Promise<void> {
    for (const command of [...this.commands.values()]) await command.remove();
    await this.removeStaleCommands();
    const left: string[] = [];
    for (const dir of this.dirs) if (!(await removeCgroupDir(dir))) left.push(dir);
    if (left.length) this.log(`cgroups: could not remove ${left.join(", ")}: still busy`);
  }
}

function ignoreExisting(error: NodeJS.ErrnoException): void {
  if (error.code !== "EEXIST") throw error;
}

/** Kills whatever is in one command's cgroups (frozen first) and removes them; resolves false if any stayed. */
async function removeCommandDirs(dirs: V1Dirs): Promise<boolean> {
  const all = Object.values(dirs).filter((dir) => dir !== undefined);
  await killAll(all, dirs.freezer ?? null);
  let removed = true;
  for (const dir of all) removed = (await removeCgroupDir(dir)) && removed;
  return removed;
}
