/**
 * The cgroup filesystem as computerd uses it: where the daemon's own cgroups are, and the
 * few file operations the computer's cgroups need (counters, limits, listing, killing,
 * removing). cgroup.ts builds the per-computer and per-command layout on top.
 *
 * The daemon may already sit in a non-root cgroup (a container runtime, a CI runner, a
 * supervisor placed in one), so every path here is the daemon's own cgroup per controller,
 * found from /proc/self/cgroup and the mount's root in /proc/self/mountinfo: a bind-mounted
 * or namespaced hierarchy shows only part of the tree, and the two together say where in
 * the visible tree the daemon is.
 */

import { readFileSync } from "node:fs";
import { readdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cgroupLimits } from "../limits.ts";
import { type Mount, parseMountinfo } from "../mountinfo.ts";

/** The v1 controllers a computer uses: memory, pids and cpu hold limits; freezer makes kill atomic. */
export const V1_CONTROLLERS = ["memory", "pids", "cpu", "freezer"] as const;
export type V1Controller = (typeof V1_CONTROLLERS)[number];

export interface OwnCgroups {
  /** The daemon's own cgroup directory in each mounted v1 controller it can locate. */
  v1: Partial<Record<V1Controller, string>>;
  /** The daemon's own directory in a mounted cgroup2 tree, or null. */
  unified: string | null;
}

/** /proc/self/cgroup: `id:controllers:path` per hierarchy; the v2 line has no controllers. */
export function parseProcCgroup(text: string): { v1: Map<string, string>; unified: string | null } {
  const v1 = new Map<string, string>();
  let unified: string | null = null;
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, controllers, path] = match as unknown as [string, string, string];
    if (controllers === "") unified = path;
    else for (const controller of controllers.split(",")) v1.set(controller, path);
  }
  return { v1, unified };
}

/** The directory of `path` inside a mount whose root is `root`, or null when the mount does not show it. */
function under(mount: Mount, path: string): string | null {
  let rest: string;
  if (mount.root === "/") rest = path;
  else if (path === mount.root || path.startsWith(`${mount.root}/`)) rest = path.slice(mount.root.length);
  else return null;
  return join(mount.point, rest).replace(/(.)\/$/, "$1");
}

export function locateOwnCgroups(mountinfo: string, procCgroup: string): OwnCgroups {
  const mounts = parseMountinfo(mountinfo);
  const own = parseProcCgroup(procCgroup);
  const v1: OwnCgroups["v1"] = {};
  for (const controller of V1_CONTROLLERS) {
    const path = own.v1.get(controller);
    if (path === undefined) continue;
    for (const mount of mounts) {
      if (mount.fstype !== "cgroup" || !mount.superOptions.includes(controller)) continue;
      const dir = under(mount, path);
      if (dir !== null) {
        v1[controller] = dir;
        break;
      }
    }
  }
  let unified: string | null = null;
  if (own.unified !== null) {
    for (const mount of mounts) {
      if (mount.fstype !== "cgroup2") continue;
      unified = under(mount, own.unified);
      if (unified !== null) break;
    }
  }
  return { v1, unified };
}

/** The value of `key` in a flat keyed file (`oom_kill 3`, `max 12`), or null when the file or key is missing. */
export function keyedValue(text: string, key: string): number | null {
  for (const line of text.split("\n")) {
    const [name, value] = line.split(" ");
    if (name === key && value !== undefined) return Number(value);
  }
  return null;
}

export async function readKeyed(file: string, key: string): Promise<number | null> {
  const text = await readFile(file, "utf8").catch(() => null);
  return text === null ? null : keyedValue(text, key);
}

export function readKeyedSync(file: string, key: string): number | null {
  try {
    return keyedValue(readFileSync(file, "utf8"), key);
  } catch {
    return null;
  }
}

export async function readNumber(file: string): Promise<number | null> {
  const text = await readFile(file, "utf8").catch(() => null);
  return text === null ? null : Number(text.trim());
}

export function writeValue(file: string, value: string | number): Promise<void> {
  return writeFile(file, String(value));
}

/**
 * The processes in any of `dirs` (pids as this process's pid namespace sees them). Read
 * synchronously: a cgroup file is the kernel's, never blocks, and read in microseconds,
 * where four reads through the thread pool took 2–7 ms of every command's end.
 */
export function listPids(dirs: readonly string[]): number[] {
  const pids = new Set<number>();
  for (const dir of dirs) {
    let text = "";
    try {
      text = readFileSync(join(dir, "cgroup.procs"), "utf8");
    } catch {
      // Gone, or never made: nothing in it.
    }
    for (const line of text.split("\n")) if (line) pids.add(Number(line));
  }
  return [...pids];
}

/** Subdirectories of `dir` whose names start with `prefix` (the cgroups a computer or daemon left). */
export async function childCgroups(dir: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && e.name.startsWith(prefix)).map((e) => join(dir, e.name));
}

function sigkill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Exited between the listing and the signal.
  }
}

/**
 * Stops a freezer cgroup's processes and resolves once they are all stopped, or after
 * freezeWaitMs (a task blocked on the FUSE mount may never freeze; signals still reach it).
 */
async function freeze(freezerDir: string): Promise<void> {
  const state = join(freezerDir, "freezer.state");
  await writeValue(state, "FROZEN");
  const deadline = Date.now() + cgroupLimits.freezeWaitMs;
  while (Date.now() < deadline) {
    if ((await readFile(state, "utf8").catch(() => "")).trim() === "FROZEN") return;
    await sleep(cgroupLimits.retryMs);
  }
}

/**
 * SIGKILLs every process in `dirs` and resolves true once none is left, false when some are
 * still there after emptyWaitMs. With a freezer cgroup the processes are frozen first, so a
 * fork bomb cannot make new ones between the listing and the signals, and a listed pid
 * cannot exit and be reused by a stranger before its signal lands. Without one, listing and
 * signalling repeat until the cgroup is empty; pids.max bounds what each round must catch.
 */
export async function killAll(dirs: readonly string[], freezerDir: string | null): Promise<boolean> {
  if (listPids(dirs).length === 0) return true;
  if (freezerDir) {
    try {
      await freeze(freezerDir);
      for (const pid of listPids(dirs)) sigkill(pid);
    } catch {
      // Freezing failed (the cgroup vanished): the loop below still signals what is left.
    } finally {
      // Killed tasks die only once they run again.
      await writeValue(join(freezerDir, "freezer.state"), "THAWED").catch(() => {});
    }
  }
  const deadline = Date.now() + cgroupLimits.emptyWaitMs;
  for (;;) {
    const pids = listPids(dirs);
    if (pids.length === 0) return true;
    if (Date.now() >= deadline) return false;
    for (const pid of pids) sigkill(pid);
    await sleep(cgroupLimits.retryMs);
  }
}

/**
 * Removes an empty cgroup directory. rmdir answers EBUSY while a process (even one already
 * SIGKILLed and still exiting) or a child cgroup is in it, so it is retried for up to
 * emptyWaitMs. Resolves true when the directory is gone (or never existed).
 */
export async function removeCgroupDir(dir: string): Promise<boolean> {
  const deadline = Date.now() + cgroupLimits.emptyWaitMs;
  for (;;) {
    try {
      await rmdir(dir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return true;
      if (code !== "EBUSY" || Date.now() >= deadline) return false;
    }
    await sleep(cgroupLimits.retryMs);
  }
}
