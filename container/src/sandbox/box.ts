/**
 * The box every command runs in: bubblewrap, started as an unprivileged host uid, with a
 * read-only root image, the workspace at /workspace, a private size-capped /tmp and home,
 * and nothing else of the host (docs/container-sandbox.md says why each piece is there).
 *
 * computerd prepares a staging directory once (`prepare`): the box's /tmp and home are
 * tmpfs mounts of their own, so their size is capped and they last as long as the daemon
 * (a `pip install --user` or `git config --global` carries over to the next command) but
 * never reach its state directory. They sit under a root-owned 0755 directory so the box
 * user can reach them whatever the permissions of the daemon's own directories are; the
 * same holds for the egress sockets.
 *
 * The launch chain is `cubicle-mknod start (host side: closes inherited descriptors, joins
 * the command's cgroups, drops to the box user's host uid with no capabilities and
 * no_new_privs, installs the device-mknod filter; without the program, a bash and setpriv do
 * all but the filter) →
 * bwrap (joins the computer's user namespace, ./userns.ts; new pid, net, ipc, uts, cgroup
 * and mount namespaces, the mounts below, seccomp) → bwrap's pid 1 (reaps orphans) → bash
 * (cd, umask) → /bin/sh -c command`. The command runs as the box user 1000 or, when the
 * request asks, as root in the box with Docker's default capabilities (boxLimits.rootCaps).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { chmod, chown, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { exitCodes } from "../../wire/index.ts";
import { egressBox } from "../egress/box.ts";
import { boxLimits } from "../limits.ts";
import { MknodSupervisor } from "./mknod.ts";
import { type BoxUserns, openBoxUserns, setprivAs } from "./userns.ts";

const run = promisify(execFile);

export interface BoxOptions {
  /** The read-only root image (container/image; COMPUTERD_ROOTFS). */
  rootfs: string;
  /** Where computerd mounts the workspace in its own namespace. */
  mount: string;
  /**
   * The first host uid (and gid) of this computer's range: box uid n is host uid
   * `uidBase + n` (./userns.ts); never 0.
   */
  uidBase: number;
  /** Names this daemon's staging directory (its state dir: unique per daemon on a host). */
  daemonKey: string;
  /** Size of the box's /tmp and of its home, each. */
  tmpBytesMax: number;
  /**
   * The host's CA bundle, shown read-only in place of the image's: a machine whose network
   * inspects TLS adds its CA there, and the box's traffic leaves through that network. It
   * holds only public certificates.
   */
  trustStore: string | null;
  /**
   * A host directory bound read-write at /mnt (COMPUTERD_BOX_SCRATCH): the benchmark's "disk"
   * column, a filesystem in the box that is not the workspace. Never set in production.
   */
  scratch?: string | null;
  /**
   * The device-node supervisor program (`cubicle-mknod`, COMPUTERD_MKNOD_BIN; ./mknod.ts):
   * with it, root in the box can make device nodes on its nodev mounts. Null: the kernel's
   * EPERM, as without it.
   */
  mknodBin?: string | null;
  log?: (line: string) => void;
}

/**
 * What one command needs from the runner to build its box. Its directory, command and
 * environment are not here: they reach the box on descriptor 6 (`commandMessage`).
 */
export interface BoxCommand {
  /** Path of this run's egress proxy socket on the host, or null for no network at all. */
  egressSocket: string | null;
  /** Started in the box before the command when egress is on (the TCP-to-socket bridge). */
  egressBridge: string[] | null;
  /** cgroup.procs files the launcher joins before it drops privileges. */
  cgroupProcs: string[];
  /** Who the command runs as in the box: the user 1000 (the default) or root. */
  user: BoxUser;
}

export type BoxUser = "user" | "root";

/** A launch: the argv and environment to spawn, and what goes on descriptors 3 to 5 (`Box.launch`). */
export interface BoxLaunch {
  argv: string[];
  env: Record<string, string>;
  bwrapArgs: Uint8Array;
  usernsFd: number;
}

/**
 * The directory, the command and the environment of one command, as its box's bash reads them
 * on descriptor 6: NUL-terminated, the variables as `NAME=value`, until end of file.
 */
export function commandMessage(cwd: string, command: string, env: Record<string, string>): Uint8Array {
  const parts = [cwd, command, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
  return new TextEncoder().encode(parts.map((part) => `${part}\0`).join(""));
}

/**
 * How the box's bash starts a command, in both kinds of launch: it reads the message
 * (`commandMessage`) on descriptor 6, changes directory and hands the environment to
 * `env -i`. That bash runs with no environment of its own (bwrap's --clearenv), so /bin/sh
 * gets exactly the request's variables: none of them reaches a bash (`SHELLOPTS`,
 * `BASH_ENV`, `PS4` change what a bash does), no bash adds its own (`SHLVL`, `_`, `OLDPWD`),
 * and none stays on a command line the host's `ps` shows (`env` holds them only until it
 * execs /bin/sh). One bash and one `env` before /bin/sh, never a second bash: each bash
 * start-up is a few milliseconds.
 */
const readMessage = [
  `IFS= read -r -d '' cwd <&6 && IFS= read -r -d '' command <&6 || exit ${exitCodes.refused};`,
  `vars=(); while IFS= read -r -d '' kv <&6; do vars+=("$kv"); done;`,
].join(" ");
const startCommand = `umask 022; cd -- "$cwd" || exit ${exitCodes.refused}; exec /usr/bin/env -i -- "\${vars[@]}" /bin/sh -c "$command"`;

export class Box {
  readonly staging: string;
  private readonly opts: BoxOptions;
  private sizeBytes: number;
  private userns: BoxUserns | null = null;
  private mknod: MknodSupervisor | null = null;

  constructor(opts: BoxOptions) {
    this.opts = opts;
    const id = createHash("sha256").update(opts.daemonKey).digest("hex").slice(0, 16);
    this.staging = join(boxLimits.stagingRoot, id);
    this.sizeBytes = opts.tmpBytesMax;
  }

  get tmp(): string {
    return join(this.staging, "tmp");
  }
  get home(): string {
    return join(this.staging, "home");
  }
  get egressDir(): string {
    return join(this.staging, "egress");
  }

  /** The host uid of the box user 1000: what owns its home, its sockets and, on the replica, its files. */
  get userHostUid(): number {
    return this.opts.uidBase + boxLimits.uid;
  }

  /** Mounts the box's /tmp and home (after clearing what a killed daemon left) and makes the egress directory. */
  async prepare(): Promise<void> {
    if (this.opts.uidBase === 0) throw new Error("the box must not run as host root");
    // bwrap opens the image and the mount as the box's uid, so every directory above them
    // must let others through; say which one does not instead of failing every command.
    for (const path of [this.opts.rootfs, this.opts.mount, this.opts.scratch]) if (path) assertReachable(path);
    await this.dispose();
    await mkdir(boxLimits.stagingRoot, { recursive: true, mode: 0o755 });
    await chmod(boxLimits.stagingRoot, 0o755);
    await mkdir(this.staging, { recursive: true, mode: 0o755 });
    for (const dir of [this.tmp, this.home, this.egressDir]) await mkdir(dir, { mode: 0o755 });
    const uid = this.userHostUid;
    await mountTmpfs(this.tmp, this.sizeBytes, "mode=1777");
    await mountTmpfs(this.home, this.sizeBytes, `mode=0700,uid=${uid},gid=${uid}`);
    await chown(this.home, uid, uid);
    this.userns = await openBoxUserns(this.opts.uidBase);
    if (this.opts.mknodBin) {
      const log = this.opts.log ?? (() => {});
      this.mknod = await MknodSupervisor.start({
        binary: this.opts.mknodBin,
        socketPath: join(this.staging, "mknod.sock"),
        launcherUid: uid,
        usernsFd: this.userns.fd,
        log,
      }).catch((error: Error) => {
        log(`${error.message}; device nodes in the box are refused`);
        return null;
      });
    }
  }

  /** A plan with another size for /tmp and home applies from the next command on. */
  async resize(tmpBytesMax: number): Promise<void> {
    if (tmpBytesMax === this.sizeBytes) return;
    for (const dir of [this.tmp, this.home]) {
      await run("mount", ["-o", `remount,size=${tmpBytesMax}`, dir]);
    }
    this.sizeBytes = tmpBytesMax;
  }

  /** Unmounts and removes the staging directory; safe to call when nothing is there. */
  async dispose(): Promise<void> {
    await this.mknod?.close();
    this.mknod = null;
    this.userns?.close();
    this.userns = null;
    for (const dir of [this.tmp, this.home]) {
      await run("umount", ["--lazy", dir]).catch(() => {});
    }
    await rm(this.staging, { recursive: true, force: true });
  }

  /**
   * How to start one command: spawn `argv` detached (its own process group) with `env`, the
   * seccomp program on fd 3, `bwrapArgs` on fd 4, `usernsFd` as fd 5 and the command's
   * message (`commandMessage`) readable on fd 6. bwrap reads its arguments from the
   * descriptor, so the box's pid 1 shows `bwrap --args 4 -- <the box's bash>` and no host
   * path, command or variable.
   */
  launch(cmd: BoxCommand): BoxLaunch {
    // The command starts once the bridge listens (a socket in LISTEN state, 0A, in the box's
    // own /proc/net/tcp), so its first request finds the proxy; the wait is bounded.
    const bridge = cmd.egressBridge
      ? `${cmd.egressBridge.map(shellQuote).join(" ")} >/dev/null 2>&1 & for i in $(seq 200); do grep -q ' 0A ' /proc/net/tcp && break; sleep 0.01; done; `
      : "";
    return this.launchWith(cmd, `${readMessage} ${closeInheritedFds(2)} ${bridge}${startCommand}`);
  }

  /**
   * A box launched before its command is known (../exec/spare.ts): everything is made as
   * `launch` makes it, and its bash waits on fd 6, a pipe, for the message that `launch`'s
   * has ready.
   */
  launchSpare(spare: Pick<BoxCommand, "cgroupProcs" | "user">): BoxLaunch {
    return this.launchWith({ ...spare, egressSocket: null }, `${readMessage} ${closeInheritedFds(2)} ${startCommand}`);
  }

  private launchWith(cmd: Pick<BoxCommand, "cgroupProcs" | "user" | "egressSocket">, inner: string): BoxLaunch {
    if (!this.userns) throw new Error("the box is not prepared");
    // Writable: /workspace, /tmp, home and /dev/shm (POSIX shared memory, which Python's
    // multiprocessing needs), each capped. Everything else is the read-only image, the box's
    // own /proc (bwrap keeps /proc/sys and friends read-only) and a read-only /dev and /run.
    // A benchmark may add its scratch disk at /mnt (BoxOptions.scratch); production never does.
    const mounts = [
      ["--ro-bind", this.opts.rootfs, "/"],
      ["--proc", "/proc"],
      ["--dev", "/dev"],
      ["--size", String(boxLimits.devShmBytesMax), "--tmpfs", "/dev/shm"],
      ["--remount-ro", "/dev"],
      ["--bind", this.opts.mount, boxLimits.workspace],
      ["--bind", this.tmp, "/tmp"],
      ["--bind", this.home, boxLimits.home],
      this.opts.scratch ? ["--bind", this.opts.scratch, boxLimits.scratch] : [],
      // The image's /run is read-only and the egress socket needs a place to appear in.
      ["--size", String(boxLimits.runBytesMax), "--perms", "0755", "--tmpfs", "/run", "--dir", "/run/cubicle"],
      cmd.egressSocket ? ["--bind", cmd.egressSocket, egressBox.socket] : [],
      ["--remount-ro", "/run"],
      this.opts.trustStore ? ["--ro-bind", this.opts.trustStore, boxLimits.trustStore] : [],
    ].flat();
    // The user namespace is the computer's (--userns 5), made once with its whole uid range;
    // every other namespace is the command's own. --disable-userns needs a namespace bwrap
    // makes itself, so the computer's namespace carries that limit instead (./userns.ts).
    const boxUid = cmd.user === "root" ? "0" : String(boxLimits.uid);
    const identity = ["--userns", "5", "--uid", boxUid, "--gid", boxUid];
    if (cmd.user === "root") {
      // bwrap keeps no capability for root in the box unless asked; these are Docker's.
      identity.push("--cap-drop", "ALL", ...boxLimits.rootCaps.flatMap((cap) => ["--cap-add", cap]));
    }
    const bwrapArgs = [
      ...identity,
      "--unshare-ipc",
      "--unshare-pid",
      "--unshare-net",
      "--unshare-uts",
      "--unshare-cgroup",
      "--hostname",
      boxLimits.hostname,
      "--die-with-parent",
      "--clearenv",
      ...mounts,
      "--seccomp",
      "3",
    ];
    // --norc: Node's stdio pipes are socket pairs, and bash reads ~/.bashrc when its input
    // is a socket (it takes that for rshd).
    const boxed = ["bwrap", "--args", "4", "--", "/bin/bash", "--norc", "--noprofile", "-c", inner, "sh"];
    // The host side joins the cgroups as root, then gives root up: `cubicle-mknod start` does
    // both in one process (each exec cost about 3 ms of CPU here: docs/container-sandbox.md,
    // "What a launch costs") and hands the box's device mknods to the computer's supervisor
    // (its filter then covers everything the box runs, and needs no file or descriptor inside
    // the box). A computer without the program does it with bash and setpriv. Descriptors 3,
    // 4 and 5 are bwrap's (the seccomp program, the arguments, the user namespace), 6 the
    // command's message; the box's own bash closes whatever of them is still open before the
    // command starts.
    const argv = this.mknod
      ? [...this.mknod.starter(this.userHostUid), ...boxed]
      : [
          "/bin/bash",
          "--norc",
          "--noprofile",
          "-c",
          `${closeInheritedFds(6)} for f in $CUBICLE_CGROUP_PROCS; do echo $$ > "$f" || exit ${exitCodes.notStarted}; done; exec "$@"`,
          "launch",
          ...setprivAs(this.userHostUid),
          ...boxed,
        ];
    return {
      argv,
      env: { PATH: boxLimits.hostPath, CUBICLE_CGROUP_PROCS: cmd.cgroupProcs.join(" ") },
      bwrapArgs: new TextEncoder().encode(bwrapArgs.map((a) => `${a}\0`).join("")),
      usernsFd: this.userns.fd,
    };
  }
}

function assertReachable(path: string): void {
  for (let dir = dirname(path); dir !== "/"; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(`${dir} is not searchable by others, so the box cannot reach ${path} through it`);
    }
  }
}

/** The host's CA bundle, if it has one where Debian keeps it. */
export function hostTrustStore(): string | null {
  return existsSync(boxLimits.trustStore) ? boxLimits.trustStore : null;
}

async function mountTmpfs(dir: string, sizeBytes: number, options: string): Promise<void> {
  await run("mount", ["-t", "tmpfs", "-o", `size=${sizeBytes},nosuid,nodev,${options}`, "cubicle-box", dir]);
}

/**
 * Closes every descriptor above `keep`. libfuse opens /dev/fuse without close-on-exec, and a
 * command that inherited it kept a dead daemon's mount waiting forever; Node cannot set
 * FD_CLOEXEC on a descriptor it did not open, hence bash (dash only redirects 0–9).
 */
function closeInheritedFds(keep: number): string {
  return `for fd in /proc/self/fd/*; do n=\${fd##*/}; [ "$n" -gt ${keep} ] && eval "exec $n>&-" 2>/dev/null; done;`;
}

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}
