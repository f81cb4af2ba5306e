/**
 * The computer's user namespace: box uids and gids 0–65535 mapped onto a host range of its
 * own (`base`…`base + 65535`), made once per daemon and joined by every box (bwrap
 * `--userns`). Root in the box is then a real root over the box's files (chown, any owner,
 * setuid to any box user) while on the host it is uid `base`, which owns nothing outside
 * this computer's range; the box user 1000 is host `base + 1000`.
 *
 * How it is made: an unprivileged holder (`setpriv` to the namespace's owner, then `unshare
 * --user`) creates the namespace; computerd, host root, writes its uid_map and gid_map
 * (only a process with CAP_SETUID in the parent namespace may map more than its own uid),
 * caps `user.max_user_namespaces` at 0 inside it, and keeps a descriptor of it. The holder
 * then exits: the descriptor keeps the namespace alive.
 *
 * The owner is the box user's host uid, not the base: bwrap 0.8 with `--userns` switches uid
 * before gid, and a switch from the owner's own uid to another drops the capability that the
 * gid switch needs; started as the owner, bwrap runs the box user without switching at all,
 * and switches to root (which keeps its capabilities) for a root box.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { boxLimits } from "../limits.ts";

/**
 * util-linux's setpriv giving root up for good as `uid`: no groups, no capability in any set,
 * no_new_privs. The argv up to the program it runs.
 */
export function setprivAs(uid: number): string[] {
  return [
    "setpriv",
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
    "--",
  ];
}

export interface BoxUserns {
  /** An open descriptor of the namespace (O_RDONLY on /proc/<holder>/ns/user), for bwrap's --userns. */
  fd: number;
  /** The host uid box uid 0 maps to. */
  base: number;
  close(): void;
}

/** Makes the namespace for a computer whose box uids start at host uid `base`. */
export async function openBoxUserns(base: number): Promise<BoxUserns> {
  const owner = base + boxLimits.uid;
  const [setpriv, ...dropRoot] = setprivAs(owner);
  const holder = spawn(
    setpriv as string,
    [
      ...dropRoot,
      "unshare",
      "--user",
      "--",
      "/bin/sh",
      "-c",
      // Says it is in the namespace, then waits for computerd to close its stdin.
      "echo ready; read _",
    ],
    { stdio: ["pipe", "pipe", "pipe"], env: { PATH: boxLimits.hostPath } },
  );
  const stderr: Buffer[] = [];
  holder.stderr.on("data", (b: Buffer) => stderr.push(b));
  const exited = new Promise<number | null>((resolve) => holder.once("close", (code) => resolve(code)));
  const ready = await new Promise<boolean>((resolve) => {
    holder.stdout.once("data", () => resolve(true));
    holder.once("error", () => resolve(false));
    void exited.then(() => resolve(false));
  });
  try {
    if (!ready || holder.pid === undefined) {
      throw new Error(`the box's user namespace could not be made: ${Buffer.concat(stderr).toString().trim()}`);
    }
    const pid = holder.pid;
    const map = `0 ${base} ${boxLimits.uidsMapped}\n`;
    writeFileSync(`/proc/${pid}/uid_map`, map);
    writeFileSync(`/proc/${pid}/gid_map`, map);
    const fd = openSync(`/proc/${pid}/ns/user`, "r");
    try {
      await capNestedUserns(pid);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return {
      fd,
      base,
      close: () => closeSync(fd),
    };
  } finally {
    holder.stdin.end();
    await exited;
  }
}

/**
 * A box never makes a user namespace of its own: seccomp refuses unshare, setns and clone's
 * namespace flags already, and this limit makes the kernel refuse too (it is what bwrap's
 * --disable-userns does, which cannot be combined with --userns). Root in the box cannot
 * raise it: that needs CAP_SYS_RESOURCE, which the box's root does not get (boxLimits.rootCaps).
 */
async function capNestedUserns(pid: number): Promise<void> {
  const child = spawn(
    "nsenter",
    [
      `--user=/proc/${pid}/ns/user`,
      "--setuid=0",
      "--setgid=0",
      "--",
      "/bin/sh",
      "-c",
      "echo 0 > /proc/sys/user/max_user_namespaces",
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { PATH: boxLimits.hostPath } },
  );
  const stderr: Buffer[] = [];
  child.stderr.on("data", (b: Buffer) => stderr.push(b));
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(-1));
    child.once("close", (c) => resolve(c));
  });
  if (code !== 0) {
    throw new Error(`could not cap user namespaces in the box: ${Buffer.concat(stderr).toString().trim()}`);
  }
}
