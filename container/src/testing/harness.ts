/**
 * Test harness: runs computerd as a child process (so tests can SIGKILL it) on a temporary
 * mount and state directory, connects to it over capnweb like the workspace object does,
 * and says hello with a freshly minted token.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type RpcStub, RpcTarget } from "capnweb";
import { SignJWT } from "jose";
import { afterAll, beforeAll } from "vitest";
import { WebSocket } from "ws";
import { ensureFanotifyBinary } from "../../native/build.ts";
import { ensureMknodBinary } from "../../native/mknod/build.ts";
import {
  AUDIENCE_COMPUTERD,
  type ComputerApi,
  type ComputerdReady,
  type ContainerExecOutcome,
  type ContainerExecRequest,
  type OutputSinkApi,
} from "../../wire/index.ts";
import { BINARY_FRAMING, FRAMING_HEADER, newSocketRpcSession, type RpcSocket } from "../../wire/socket.ts";
import { MemoryWorkspace } from "./memoryWorkspace.ts";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../..");
export const node24 = join(repoRoot, "node_modules/.bin/node");
export const nodeBinDir = dirname(node24);
const entry = join(repoRoot, "container/src/main.ts");

export const testSecret = "test-secret-0123456789abcdef";
export const testWorkspace = "tenant_1:ws_1";

/**
 * Node's flags and glibc's malloc settings the supervisor starts every computerd with
 * (container/supervisor/limits.ts, daemonNodeFlags and daemonMallocEnv, which this room may
 * not import), for tests of the daemon's memory.
 */
export const productionDaemon = {
  nodeFlags: ["--max-semi-space-size=2", "--expose-gc"],
  env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "65536" },
} as const;

export interface DaemonProcess {
  proc: ChildProcess;
  port: number;
  mount: string;
  stateDir: string;
  stderr: () => string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit (the mount stays behind, stale, like after a crash). */
  kill(): Promise<void>;
}

export async function makeDirs(): Promise<{ root: string; mount: string; stateDir: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "computerd-test-"));
  // The box reaches the mount as an unprivileged uid, through every directory above it.
  await chmod(root, 0o755);
  return {
    root,
    mount: join(root, "workspace"),
    stateDir: join(root, "state"),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Starts computerd from source, or from the esbuild bundle when `bundle` names it; `nodeFlags`
 * go to Node before the script (the supervisor's are productionDaemon's).
 */
export async function startDaemon(
  dirs: { mount: string; stateDir: string },
  env: Record<string, string> = {},
  bundle?: string,
  nodeFlags: readonly string[] = [],
): Promise<DaemonProcess> {
  const mknod = await ensureMknodBinary();
  const proc = spawn(node24, [...nodeFlags, bundle ?? entry], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
      COMPUTERD_WORKSPACE: testWorkspace,
      COMPUTERD_SECRET: testSecret,
      COMPUTERD_PORT: "0",
      COMPUTERD_STATE_DIR: dirs.stateDir,
      COMPUTERD_MOUNT: dirs.mount,
      // The box's root image, which the tests' global setup builds (container/image).
      ...(process.env.COMPUTERD_ROOTFS ? { COMPUTERD_ROOTFS: process.env.COMPUTERD_ROOTFS } : {}),
      // The device-node supervisor, as production has it (container/native/mknod).
      ...(mknod.ok ? { COMPUTERD_MKNOD_BIN: mknod.path } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
    if (process.env.COMPUTERD_TEST_LOG) process.stderr.write(d);
  });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const ready = await new Promise<ComputerdReady>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.once("line", (line) => resolve(JSON.parse(line) as ComputerdReady));
    exited.then((code) => reject(new Error(`computerd exited ${code}: ${stderr}`)));
  });
  return {
    proc,
    port: ready.port,
    mount: ready.mount,
    stateDir: dirs.stateDir,
    stderr: () => stderr,
    async stop() {
      proc.kill("SIGTERM");
      return await exited;
    },
    async kill() {
      proc.kill("SIGKILL");
      await exited;
    },
  };
}

export async function mintToken(
  opts: { secret?: string; subject?: string; audience?: string; issuedAtS?: number; jti?: string | null } = {},
): Promise<string> {
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(opts.audience ?? AUDIENCE_COMPUTERD)
    .setSubject(opts.subject ?? testWorkspace)
    .setIssuedAt(opts.issuedAtS ?? Math.floor(Date.now() / 1000));
  if (opts.jti !== null) jwt.setJti(opts.jti ?? randomUUID());
  return await jwt.sign(new TextEncoder().encode(opts.secret ?? testSecret));
}

export interface Session {
  computer: RpcStub<ComputerApi>;
  twin: MemoryWorkspace;
  appliedRev: number;
  answer: string;
  close(): void;
}

/** A session with the daemon on `port`, in the binary framing the object asks for (container/wire/socket.ts). */
export function connect(port: number): RpcStub<ComputerApi> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/session`, { headers: { [FRAMING_HEADER]: BINARY_FRAMING } });
  return newSocketRpcSession<ComputerApi>(socket as unknown as RpcSocket);
}

/** Opens a session and says hello with a valid token. */
export async function openSession(port: number, twin: MemoryWorkspace): Promise<Session> {
  const computer = connect(port);
  const reply = await computer.hello(await mintToken(), twin);
  return {
    computer,
    twin,
    appliedRev: reply.appliedRev,
    answer: reply.token,
    close: () => computer[Symbol.dispose](),
  };
}

class Collector extends RpcTarget implements OutputSinkApi {
  stdout: Buffer[] = [];
  stderr: Buffer[] = [];
  /** Each call the sink took, in order. */
  calls: { stream: "stdout" | "stderr"; text: string }[] = [];
  async write(stream: "stdout" | "stderr", data: Uint8Array): Promise<void> {
    this.calls.push({ stream, text: Buffer.from(data).toString() });
    this[stream].push(Buffer.from(data));
  }
}

export interface ExecResult {
  outcome: ContainerExecOutcome;
  /** What the sink took and then the outcome's tail, as the object stores a run's output. */
  stdout: string;
  stderr: string;
  /** The calls the sink took while the command ran (the tail is not among them). */
  sinkCalls: Collector["calls"];
}

/** Runs a command on the mount (cwd defaults to the mount root). */
export async function run(
  computer: RpcStub<ComputerApi>,
  mount: string,
  command: string,
  opts: Partial<ContainerExecRequest> = {},
): Promise<ExecResult> {
  const sink = new Collector();
  const outcome = await computer.exec(
    {
      execId: randomUUID(),
      command,
      cwd: mount,
      env: {},
      stdin: new Uint8Array(),
      timeoutMs: 30_000,
      outputBytesMax: 1024 * 1024,
      egress: false,
      allow: null,
      ...opts,
    },
    sink,
  );
  const sinkCalls = [...sink.calls];
  for (const piece of (outcome as ContainerExecOutcome).tail ?? []) sink[piece.stream].push(Buffer.from(piece.data));
  return {
    outcome: outcome as ContainerExecOutcome,
    stdout: Buffer.concat(sink.stdout).toString(),
    stderr: Buffer.concat(sink.stderr).toString(),
    sinkCalls,
  };
}

/** Waits until `check` holds, polling; for effects that happen asynchronously by design (a pull). */
export async function eventually<T>(check: () => T | false | Promise<T | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The two ways computerd mounts a workspace; tests of the daemon's sync run under both. */
export const mountModes = ["native", "fuse"] as const;
export type MountModeName = (typeof mountModes)[number];

/** The daemon environment that forces `mode` (the native one needs its fanotify helper built). */
export async function mountEnv(mode: MountModeName): Promise<Record<string, string>> {
  if (mode === "fuse") return { COMPUTERD_MOUNT_MODE: "fuse" };
  const fanotify = await ensureFanotifyBinary();
  if (!fanotify.ok) throw new Error(fanotify.reason);
  return { COMPUTERD_MOUNT_MODE: "native", COMPUTERD_FANOTIFY_BIN: fanotify.path };
}

/** One daemon with a session to `twin` for a whole test file; `sh` runs a command on its mount. */
export interface DaemonFixture {
  daemon: DaemonProcess;
  session: Session;
  twin: MemoryWorkspace;
  sh(command: string, opts?: Partial<ContainerExecRequest>): Promise<ExecResult>;
}

/**
 * Starts a daemon before the file's tests and stops it (and removes its dirs) after them.
 * The returned object is filled in by `beforeAll`, so read its fields inside tests only.
 */
export function useDaemon(
  makeTwin: () => MemoryWorkspace = () => new MemoryWorkspace(),
  env: Record<string, string> = {},
): DaemonFixture {
  let dirs: Awaited<ReturnType<typeof makeDirs>> | undefined;
  const fixture = {
    sh: (command: string, opts: Partial<ContainerExecRequest> = {}) =>
      run(fixture.session.computer, fixture.daemon.mount, command, opts),
  } as DaemonFixture;
  beforeAll(async () => {
    dirs = await makeDirs();
    fixture.daemon = await startDaemon(dirs, env);
    fixture.twin = makeTwin();
    fixture.session = await openSession(fixture.daemon.port, fixture.twin);
    // A daemon starts in about a second; CI runs several test files at once on two cores.
  }, 30_000);
  afterAll(async () => {
    fixture.session?.close();
    await fixture.daemon?.stop();
    await dirs?.cleanup();
  });
  return fixture;
}
