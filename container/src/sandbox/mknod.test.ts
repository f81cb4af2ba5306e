/**
 * The device-node supervisor against hostile callers, with real processes: a user namespace
 * like a computer's (./userns.ts), `cubicle-mknod serve`, and callers started the way the box
 * starts them (setpriv, the launcher, bwrap joining the namespace as root with CAP_MKNOD).
 * Unlike the box, these callers see the host's whole tree through `--dev-bind / /`, so a
 * tmpfs this test mounts without nodev is a place where a device node would really work:
 * the supervisor must never make one there, however the caller gets its path to lead there.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureMknodBinary } from "../../native/mknod/build.ts";
import { boxLimits } from "../limits.ts";
import { MknodSupervisor } from "./mknod.ts";
import { type BoxUserns, openBoxUserns } from "./userns.ts";

const run = promisify(execFile);
const base = 3_000_000;
const owner = base + boxLimits.uid;
let binary: string;
let dir: string;
let userns: BoxUserns;
let otherUserns: BoxUserns;
let supervisor: ChildProcess;
let socket: string;
/** A tmpfs mounted nodev (device nodes allowed there) and one without (never). */
let safe: string;
let unsafe: string;

beforeAll(async () => {
  const built = await ensureMknodBinary();
  if (!built.ok) throw new Error(built.reason);
  binary = built.path;
  dir = await mkdtemp(join(tmpdir(), "mknod-test-"));
  // The launcher connects as the box user's host uid, which must reach the socket.
  chmodSync(dir, 0o755);
  safe = join(dir, "safe");
  unsafe = join(dir, "unsafe");
  for (const [path, options] of [
    [safe, "nodev,mode=0777"],
    [unsafe, "mode=0777"],
  ] as const) {
    mkdirSync(path);
    await run("mount", ["-t", "tmpfs", "-o", `size=1m,nosuid,${options}`, "mknod-test", path]);
  }
  userns = await openBoxUserns(base);
  otherUserns = await openBoxUserns(base + boxLimits.uidsMapped);
  socket = join(dir, "mknod.sock");
  supervisor = spawn(binary, ["serve", socket, String(owner)], { stdio: ["pipe", "pipe", "inherit", userns.fd] });
  await new Promise<void>((resolve, reject) => {
    const stdout = supervisor.stdout;
    if (!stdout) return reject(new Error("no stdout"));
    createInterface({ input: stdout }).once("line", (line) => (line === "ready" ? resolve() : reject(new Error(line))));
    supervisor.once("exit", (code) => reject(new Error(`cubicle-mknod exited ${code}`)));
  });
}, 30_000);

afterAll(async () => {
  supervisor?.stdin?.end();
  userns?.close();
  otherUserns?.close();
  for (const path of [safe, unsafe]) await run("umount", ["--lazy", path]).catch(() => {});
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Caller {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `script` as root of the computer's namespace (or `ns`), under the launcher's filter; `mounts` are bwrap's. */
async function asBoxRoot(
  script: string,
  ns: BoxUserns = userns,
  mounts: string[] = [],
  socketPath = socket,
): Promise<Caller> {
  // The launch chain as the box runs it. Another namespace's owner may not connect, so for
  // one the launcher runs as root (which may) and the owner's uid comes after it.
  const drop = (uid: number) => [
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
  ];
  const nsOwner = ns.base + boxLimits.uid;
  const launcher = [binary, "launch", socketPath];
  const chain =
    ns === userns
      ? [...drop(owner), "--no-new-privs", "--", ...launcher]
      : ["--no-new-privs", "--", ...launcher, "setpriv", ...drop(nsOwner), "--"];
  const child = spawn(
    "setpriv",
    [
      ...chain,
      "bwrap",
      "--userns",
      "5",
      "--uid",
      "0",
      "--gid",
      "0",
      "--cap-drop",
      "ALL",
      "--cap-add",
      "CAP_MKNOD",
      "--cap-add",
      "CAP_DAC_OVERRIDE",
      "--dev-bind",
      "/",
      "/",
      ...mounts,
      "--unshare-pid",
      "--die-with-parent",
      "--",
      "/bin/sh",
      "-c",
      script,
    ],
    { stdio: ["ignore", "pipe", "pipe", "ignore", "ignore", ns.fd] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr?.on("data", (b: Buffer) => {
    stderr += b.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stdout, stderr };
}

function devicesUnder(path: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(path, { recursive: true }) as string[]) {
    const st = lstatSync(join(path, name));
    if (st.isCharacterDevice() || st.isBlockDevice()) found.push(name);
  }
  return found;
}

function supervisorFds(): number {
  return readdirSync(`/proc/${supervisor.pid}/fd`).length;
}

/**
 * Waits until the supervisor holds no more descriptors than `before`. An earlier test's box
 * may still be exiting, its listener still held, when `before` is read; that one can only
 * go, so the count may end below `before`, never above it (CI once saw 6 against 7).
 */
function holdsNoMoreThan(before: number) {
  return expect.poll(() => supervisorFds(), { timeout: 10_000 }).toBeLessThanOrEqual(before);
}

describe("the device-node supervisor", () => {
  it("makes a node on a nodev mount, as the caller, and never on a mount without nodev", async () => {
    const r = await asBoxRoot(`mknod ${safe}/null c 1 3 && echo made; mknod ${unsafe}/null c 1 3 || echo refused`);
    expect(r.stdout, r.stderr).toBe("made\nrefused\n");
    expect(r.stderr).toMatch(/Operation not permitted/);
    const st = lstatSync(join(safe, "null"));
    expect(st.isCharacterDevice()).toBe(true);
    expect(st.uid).toBe(base);
    expect(devicesUnder(unsafe)).toEqual([]);
  });

  it("never follows a symlink swapped in by a racing caller onto a mount without nodev", async () => {
    // One process flips `race` between a directory on the nodev mount and a symlink to the
    // other mount while another asks for nodes below it as fast as it can.
    const flips = 150;
    const script = [
      `cd ${safe}; mkdir -p real`,
      `( i=0; while [ $i -lt ${flips} ]; do ln -sfn ${unsafe} race.tmp; mv -T race.tmp race; rm -f race; ln -sfn real race.tmp; mv -T race.tmp race; i=$((i+1)); done ) &`,
      `i=0; while [ $i -lt ${flips} ]; do mknod race/n$i c 1 3 2>/dev/null; i=$((i+1)); done; wait`,
      "echo done",
    ].join("\n");
    const r = await asBoxRoot(script);
    expect(r.stdout, r.stderr).toBe("done\n");
    expect(devicesUnder(unsafe)).toEqual([]);
    // Some landed, so the race really was run against the supervisor.
    expect(devicesUnder(join(safe, "real")).length).toBeGreaterThan(0);
  }, 120_000);

  it("resolves the path in the caller's mount namespace, not the supervisor's", async () => {
    // The caller has a tmpfs of its own over a host directory: the node lands there, and the
    // host directory underneath, which the supervisor sees at the same path, stays empty.
    const under = join(dir, "under");
    mkdirSync(under);
    const r = await asBoxRoot(`mknod ${under}/ns-node c 1 3 && ls ${under}`, userns, ["--tmpfs", under]);
    expect(r.stdout, r.stderr).toBe("ns-node\n");
    expect(readdirSync(under)).toEqual([]);
  });

  it("answers a caller of another user namespace EPERM and makes nothing", async () => {
    const r = await asBoxRoot(`mknod ${safe}/foreign c 1 3 || echo refused`, otherUserns);
    expect(r.stdout, r.stderr).toBe("refused\n");
    expect(existsSync(join(safe, "foreign"))).toBe(false);
  });

  it("survives callers killed mid-request and a flood, and keeps no descriptor of either", async () => {
    const before = supervisorFds();
    // Eight writers, each starting callers and killing them at once, most of them while the
    // supervisor holds their request; then one more caller, which must still be served.
    const flood = [
      `cd ${safe}; mkdir -p flood`,
      "for w in 1 2 3 4 5 6 7 8; do ( i=0; while [ $i -lt 40 ]; do mknod flood/$w-$i c 1 3 2>/dev/null & kill -9 $! 2>/dev/null; mknod flood/$w-$i c 1 3 2>/dev/null; i=$((i+1)); done ) & done",
      "wait",
      "mknod flood/after c 1 3 && echo served",
    ].join("; ");
    const r = await asBoxRoot(flood);
    expect(r.stdout, r.stderr).toBe("served\n");
    // Every box's listener is closed once its processes are gone: nothing accumulates.
    await holdsNoMoreThan(before);
  }, 120_000);

  it("lets boxes come and go past its listener limit", async () => {
    const before = supervisorFds();
    for (let round = 0; round < 30; round++) {
      const boxes = await Promise.all(Array.from({ length: 10 }, () => asBoxRoot("true")));
      for (const r of boxes) expect(r.code, r.stderr).toBe(0);
    }
    const r = await asBoxRoot(`mknod ${safe}/late c 1 3 && echo made`);
    expect(r.stdout, r.stderr).toBe("made\n");
    await holdsNoMoreThan(before);
  }, 300_000);

  it("keeps nothing but seccomp listeners, and only from the launcher's uid or root", async () => {
    // Root sends a descriptor that is not a listener: refused with 'n', and the supervisor goes on.
    const answer = await new Promise<string>((resolve, reject) => {
      const conn = connect(socket);
      conn.once("error", reject);
      conn.once("data", (b) => resolve(b.toString()));
      conn.write("no descriptor");
      conn.once("end", () => resolve(""));
    });
    expect(answer).toBe("n");
    const r = await asBoxRoot(`mknod ${safe}/after-junk c 1 3 && echo made`);
    expect(r.stdout, r.stderr).toBe("made\n");
    // Another host uid may not even connect: the socket is the launcher's, mode 0600.
    const stranger = await run("setpriv", [
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "--no-new-privs",
      "--",
      binary,
      "launch",
      socket,
      "true",
    ]).then(
      () => "connected",
      (error: { stderr?: string }) => error.stderr ?? "failed",
    );
    expect(stranger).toMatch(/connect: Permission denied/);
  });

  it("is restarted by computerd's wrapper when it dies, and serves again", async () => {
    const logs: string[] = [];
    const restartSocket = join(dir, "restart.sock");
    const wrapper = await MknodSupervisor.start({
      binary,
      socketPath: restartSocket,
      launcherUid: owner,
      usernsFd: userns.fd,
      log: (line) => logs.push(line),
    });
    try {
      const first = wrapper.pid as number;
      process.kill(first, "SIGKILL");
      await expect.poll(() => wrapper.pid !== undefined && wrapper.pid !== first, { timeout: 10_000 }).toBe(true);
      expect(logs.join("\n")).toMatch(/exited unasked \(SIGKILL\).*restarting it/);
      const r = await asBoxRoot(`mknod ${safe}/restarted c 1 3 && echo made`, userns, [], restartSocket);
      expect(r.stdout, r.stderr).toBe("made\n");
    } finally {
      await wrapper.close();
    }
  });
});
