/**
 * The fanotify helper on a fresh loop ext4, with this test process as computerd (its pid is
 * the allow pid) and an in-memory "object" serving placeholder content by key. Commands run
 * as child processes, as a container's would: only they wait on placeholders and only their
 * changes are journaled. Never run a command synchronously here (execFileSync): hydration
 * is answered on this process's event loop, which would be blocked.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureFanotifyBinary } from "../../native/build.ts";
import {
  type Change,
  type FanotifyHelper,
  type FanotifyOptions,
  type HydrateRequest,
  startFanotify,
} from "../native/fanotify.ts";
import { type LoopExt4, mountLoopExt4 } from "./loopExt4.ts";

export interface NativeHarness {
  fs: LoopExt4;
  helper: FanotifyHelper;
  binary: string;
  requests: HydrateRequest[];
  changes: Change[];
  rescans: string[];
  dropped: { ino: number; key: string }[];
  /** What the "object" holds: content by key, or the errno a fetch of that key fails with. */
  remote: Map<string, Buffer | number>;
  /** While set, hydration waits for it: lets a test line readers up on one placeholder. */
  hold: Promise<void> | null;
  /** Makes a placeholder at `path` whose content the object serves. */
  placeholder(path: string, content: string | Buffer, options?: { mode?: number; mtimeNs?: bigint }): Promise<string>;
  /** Runs `sh -c script` in the mount root as a child process. */
  sh(script: string): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Stops the helper and starts another on the same filesystem, as computerd does when it restarts. */
  restart(): Promise<void>;
  /** Absolute path on the host of a workspace path. */
  host(path: string): string;
  dispose(): Promise<void>;
}

const live = new Set<NativeHarness>();

/**
 * Disposes every harness still running: for afterAll, since a test that times out never
 * reaches its own `finally`, and its mount must not outlive the run.
 */
export async function disposeNativeHarnesses(): Promise<void> {
  await Promise.all([...live].map((h) => h.dispose()));
}

export async function startNativeHarness(overrides: Partial<FanotifyOptions> = {}): Promise<NativeHarness> {
  const built = await ensureFanotifyBinary();
  if (!built.ok) throw new Error(built.reason);
  const fs = await mountLoopExt4();
  const h = {
    fs,
    binary: built.path,
    requests: [] as HydrateRequest[],
    changes: [] as Change[],
    rescans: [] as string[],
    dropped: [] as { ino: number; key: string }[],
    remote: new Map<string, Buffer | number>(),
    hold: null as Promise<void> | null,
  } as NativeHarness;
  let options: FanotifyOptions;
  try {
    options = {
      binary: built.path,
      mountRoot: fs.mnt,
      allowPid: process.pid,
      async hydrate(request) {
        h.requests.push(request);
        if (h.hold) await h.hold;
        const content = h.remote.get(request.key);
        if (content === undefined) return { errno: 5 };
        if (typeof content === "number") return { errno: content };
        // Both ways of answering get exercised: small content inline, the rest as a file.
        if (content.byteLength <= 1024) return { bytes: content };
        // Content files live beside the image, on /tmp's filesystem: never the marked one.
        const file = join(fs.dir, `content-${request.id}`);
        writeFileSync(file, content);
        return { file, release: () => rmSync(file, { force: true }) };
      },
      onChange: (change) => h.changes.push(change),
      onRescan: (reason) => h.rescans.push(reason),
      onDropped: (placeholder) => h.dropped.push(placeholder),
      ...overrides,
    };
    h.helper = await startFanotify(options);
  } catch (error) {
    await fs.dispose();
    throw error;
  }
  h.host = (path) => join(fs.mnt, path);
  h.restart = async () => {
    await h.helper.stop();
    h.helper = await startFanotify(options);
  };
  h.placeholder = async (path, content, options = {}) => {
    const bytes = Buffer.from(content);
    const key = `etag-${h.remote.size} ${path}`;
    h.remote.set(key, bytes);
    const placed = await h.helper.place({
      path,
      size: bytes.byteLength,
      mode: options.mode ?? 0o644,
      uid: 1000,
      gid: 1000,
      mtimeNs: options.mtimeNs ?? 1_500_000_000_123_456_789n,
      key,
    });
    if (!placed.ok) throw new Error(`place ${path}: errno ${placed.errno}`);
    return key;
  };
  h.sh = (script) =>
    new Promise((resolve) => {
      const child = spawn("sh", ["-c", script], { cwd: fs.mnt, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  h.dispose = async () => {
    live.delete(h);
    await h.helper.stop().catch(() => {});
    await fs.dispose();
  };
  live.add(h);
  return h;
}

/** The xattrs of a file, read by python3 (Node has no xattr call; reading them raises no content event). */
export function listXattrs(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      "python3",
      ["-c", "import os, sys, json; print(json.dumps(os.listxattr(sys.argv[1])))", path],
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as string[])),
    );
  });
}

/** Resolves once process `pid` is blocked waiting for a fanotify answer. */
export async function blockedOnFanotify(pid: number): Promise<void> {
  for (;;) {
    const wchan = readFileSync(`/proc/${pid}/wchan`, "utf8");
    if (wchan.startsWith("fanotify")) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
