/**
 * What the supervisor reads from /proc to know which processes belong to a daemon.
 * `unshare --fork` is our child; the daemon is unshare's child (PID 1 of its namespace), so
 * its host pid is found through `/proc/<pid>/task/<tid>/children`. A namespace is known by
 * its inode (`/proc/<pid>/ns/pid` → `pid:[4026532178]`), which is how a stop proves that
 * nothing is left inside it, including processes that joined it later with `nsenter`.
 */
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Host pids of a process's children; empty once it is gone. */
export function childrenOf(pid: number): number[] {
  const pids: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text) pids.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // The process ended while we read it: it has no children left to report.
  }
  return pids;
}

export interface Namespaces {
  /** As `readlink /proc/<pid>/ns/pid` shows it: `pid:[4026532178]`. */
  pid: string;
  mnt: string;
  /** Open descriptors of both namespaces; see holdNamespaces. */
  fds: number[];
}

/**
 * A process's pid and mount namespaces, held open. The kernel hands a freed namespace's
 * inode number to the next new one, so without the hold a stop that scans for "processes
 * in namespace X" could find, and kill, a daemon started meanwhile. Holding the mount
 * namespace also keeps its (dead) mounts until `release`, which a stop calls once the
 * namespace is empty. Null when the process is gone.
 */
export function holdNamespaces(pid: number): Namespaces | null {
  const fds: number[] = [];
  try {
    for (const kind of ["pid", "mnt"]) fds.push(openSync(`/proc/${pid}/ns/${kind}`, "r"));
    const [pidFd, mntFd] = fds;
    return { pid: readlinkSync(`/proc/self/fd/${pidFd}`), mnt: readlinkSync(`/proc/self/fd/${mntFd}`), fds };
  } catch {
    for (const fd of fds) closeSync(fd);
    return null;
  }
}

export function releaseNamespaces(ns: Namespaces) {
  for (const fd of ns.fds.splice(0)) closeSync(fd);
}

function namespacesOf(pid: number): { pid: string; mnt: string } | null {
  try {
    return { pid: readlinkSync(`/proc/${pid}/ns/pid`), mnt: readlinkSync(`/proc/${pid}/ns/mnt`) };
  } catch {
    return null;
  }
}

/** Every host pid still inside either namespace: those keep the mount alive. */
export function processesIn(ns: Namespaces): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const own = namespacesOf(pid);
    if (own && (own.pid === ns.pid || own.mnt === ns.mnt)) pids.push(pid);
  }
  return pids;
}
