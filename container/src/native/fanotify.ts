/**
 * computerd's side of the native mode's fanotify helper (container/native): starts
 * `cubicle-fanotify` on the workspace filesystem, answers its hydration requests with the
 * `hydrate` callback, and hands the change journal to `onChange`. The helper is the only
 * part in C; every decision (what a key means, where content comes from, what to push)
 * stays here and in computerd.
 *
 * Contract, field by field:
 * - The helper owns the fanotify groups; when it exits, the kernel allows every access it
 *   had not answered, and placeholders stop being guarded (a reader would see zeros). So an
 *   exit computerd did not ask for (`onExit` with `expected: false`) must stop the box.
 * - `hydrate` is called once per placeholder, however many processes wait on it. Answer
 *   `{ bytes }` (the whole content, up to nativeLimits.inlineBytesMax), `{ file }` (a regular
 *   file on another filesystem holding the whole content; keep it until `release` is called,
 *   after the helper copied it) or `{ errno }` (the waiters get it; the
 *   kernel passes EIO EPERM EBUSY ETXTBSY EAGAIN ENOSPC EDQUOT, the helper makes others EIO).
 *   A throw or a timeout (nativeLimits.hydrateTimeoutMs) answers EIO. Placeholders must be
 *   fresh inodes (write a new file and rename it into place): an inode the helper once saw
 *   without the xattr is ignored from then on.
 * - `onChange` gets the container's changes (never computerd's own: its pid is `allowPid`,
 *   and the helper's fills are not reported), merged within a batch, each path resolved when
 *   read (see Change). `onRescan` means the journal lost track (queue overflow, a handle that
 *   would not resolve): compare the whole tree with the index.
 * - `drain()` resolves once every change queued before it was called has reached onChange.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { nativeLimits } from "./limits.ts";
import {
  type Change,
  command,
  type HelperMessage,
  type HydrateRequest,
  type Placement,
  parseLine,
} from "./protocol.ts";

export type { Change, ChangeKind, HydrateRequest, Placement } from "./protocol.ts";

export type HydrateAnswer =
  | { file: string; release?: () => void | Promise<void> }
  | { bytes: Uint8Array }
  | { errno: number };

export interface FanotifyOptions {
  /** The helper binary: container/native/build.ts builds it into .build/native/cubicle-fanotify. */
  binary: string;
  /** The root of the workspace's own ext4 mount; anything else is refused. */
  mountRoot: string;
  /** computerd's pid: its accesses never wait and its writes are never reported. */
  allowPid: number;
  hydrate(request: HydrateRequest): Promise<HydrateAnswer>;
  onChange(change: Change): void;
  onRescan(reason: string): void;
  /** After a placeholder was filled (no errno) or its fill failed (errno: its readers got that). */
  onHydrated?(request: HydrateRequest, outcome: { errno?: number }): void;
  /**
   * A placeholder stopped being one without content: a process emptied it with an O_TRUNC
   * open (which raises no pre-content event) and then touched it. Its writes are journaled.
   */
  onDropped?(placeholder: { ino: number; key: string }): void;
  /** Events dropped because their directory was removed before they were read; that removal covers them. */
  onStale?(count: number): void;
  onExit?(exit: HelperExit): void;
  /** The helper's diagnostics, a line at a time. */
  log?(line: string): void;
}

export interface HelperExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of its stderr. */
  stderr: string;
  /** True when stop() asked for it. */
  expected: boolean;
}

export interface FanotifyStats {
  requests: number;
  fills: number;
  denials: number;
  changes: number;
  rescans: number;
  stale: number;
}

export type PlaceResult = { ok: true; ino: number } | { ok: false; errno: number };

export interface FanotifyHelper {
  readonly pid: number;
  /**
   * Makes a placeholder at `path`, atomically replacing what is there. Placements run on
   * several threads: await one before placing the same path again.
   */
  place(placement: Placement): Promise<PlaceResult>;
  drain(): Promise<void>;
  stop(): Promise<HelperExit>;
  readonly exited: Promise<HelperExit>;
  stats(): FanotifyStats;
}

const { EIO } = constants.errno;

/** Starts the helper; resolves once both groups are marked, rejects with the helper's reason otherwise. */
export function startFanotify(options: FanotifyOptions): Promise<FanotifyHelper> {
  const child = spawn(options.binary, [options.mountRoot, "--allow-pid", String(options.allowPid)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stats: FanotifyStats = { requests: 0, fills: 0, denials: 0, changes: 0, rescans: 0, stale: 0 };
  const filling = new Map<number, { request: HydrateRequest; release?: () => void | Promise<void> }>();
  const syncWaiters = new Map<number, () => void>();
  const placing = new Map<number, (result: PlaceResult) => void>();
  let syncSeq = 0;
  let placeSeq = 0;
  let stopping = false;
  let stderr = "";
  let ready: (() => void) | null = null;
  // The helper's pipe breaks when it exits; the exit itself is reported through `exited`.
  child.stdin.on("error", () => {});
  const send = (line: string) => {
    if (child.stdin.writable) child.stdin.write(line);
  };

  const exited = new Promise<HelperExit>((resolve) => {
    child.on("error", (error) => {
      stderr += `${error.message}\n`;
    });
    child.on("close", (code, signal) => resolve({ code, signal, stderr: stderr.trim(), expected: stopping }));
  });

  async function answer(request: HydrateRequest): Promise<void> {
    stats.requests++;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<HydrateAnswer>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve({ errno: EIO });
      }, nativeLimits.hydrateTimeoutMs);
      // Once the helper is gone nobody waits for this answer; the timer must not keep Node alive.
      timer.unref();
    });
    const pending = options.hydrate(request).catch((error: Error): HydrateAnswer => {
      options.log?.(`hydrate ${request.key}: ${error.message}`);
      return { errno: EIO };
    });
    const result = await Promise.race([pending, timeout]);
    clearTimeout(timer);
    if ("file" in result) {
      filling.set(request.id, { request, release: result.release });
      send(command.fill(request.id, result.file));
      return;
    }
    if ("bytes" in result && result.bytes.byteLength <= nativeLimits.inlineBytesMax) {
      filling.set(request.id, { request });
      send(command.data(request.id, result.bytes));
      return;
    }
    const errno = "errno" in result ? result.errno : EIO;
    if ("bytes" in result)
      options.log?.(`hydrate ${request.key}: inline content over ${nativeLimits.inlineBytesMax} bytes`);
    stats.denials++;
    send(command.deny(request.id, errno));
    if (!timedOut) return;
    options.log?.(`hydrate ${request.key}: no answer in ${nativeLimits.hydrateTimeoutMs} ms, readers got EIO`);
    // A late answer still owns its file.
    const late = await pending;
    if ("file" in late) await late.release?.();
  }

  function onMessage(msg: HelperMessage): void {
    switch (msg.t) {
      case "ready":
        ready?.();
        return;
      case "hydrate":
        void answer({ id: msg.id, key: msg.key, ino: msg.ino, size: msg.size });
        return;
      case "filled": {
        const fill = filling.get(msg.id);
        filling.delete(msg.id);
        if (!fill) return;
        if (msg.errno) stats.denials++;
        else stats.fills++;
        void Promise.resolve(fill.release?.()).catch((error: Error) => options.log?.(`release: ${error.message}`));
        options.onHydrated?.(fill.request, msg.errno ? { errno: msg.errno } : {});
        return;
      }
      case "dropped":
        options.onDropped?.({ ino: msg.ino, key: msg.key });
        return;
      case "placed":
        placing.get(msg.seq)?.(msg.errno ? { ok: false, errno: msg.errno } : { ok: true, ino: msg.ino ?? 0 });
        placing.delete(msg.seq);
        return;
      case "change":
        stats.changes++;
        options.onChange({
          kinds: msg.k,
          path: msg.path,
          isDir: msg.dir,
          ...(msg.from !== undefined && { from: msg.from }),
          ...(msg.ino !== undefined && { ino: msg.ino }),
        });
        return;
      case "rescan":
        stats.rescans++;
        options.onRescan(msg.reason);
        return;
      case "stale":
        stats.stale += msg.count;
        options.onStale?.(msg.count);
        return;
      case "synced":
        syncWaiters.get(msg.n)?.();
        syncWaiters.delete(msg.n);
        return;
    }
  }

  readLines(child.stdout, (line) => {
    try {
      onMessage(parseLine(line));
    } catch (error) {
      options.log?.(`bad line from the helper: ${(error as Error).message}`);
    }
  });
  readLines(child.stderr, (line) => {
    stderr = `${stderr}${line}\n`.slice(-nativeLimits.stderrKeptBytes);
    options.log?.(line);
  });

  const helper: FanotifyHelper = {
    get pid() {
      return child.pid ?? 0;
    },
    exited,
    stats: () => ({ ...stats }),
    place(placement) {
      const seq = ++placeSeq;
      const placed = new Promise<PlaceResult>((resolve) => placing.set(seq, resolve));
      send(command.place(seq, placement));
      return Promise.race([placed, exited.then((): PlaceResult => ({ ok: false, errno: EIO }))]);
    },
    async drain() {
      const n = ++syncSeq;
      const synced = new Promise<void>((resolve) => syncWaiters.set(n, resolve));
      send(command.sync(n));
      const outcome = await raceTimeout(
        Promise.race([synced.then(() => "synced" as const), exited.then(() => "exited" as const)]),
        nativeLimits.drainTimeoutMs,
      );
      syncWaiters.delete(n);
      if (outcome !== "synced") throw new Error(`fanotify helper did not drain: ${outcome ?? "timed out"}`);
    },
    async stop() {
      stopping = true;
      child.stdin.end();
      const exit = await raceTimeout(exited, nativeLimits.stopTimeoutMs);
      if (exit) return exit;
      child.kill("SIGKILL");
      return exited;
    },
  };

  void exited.then((exit) => options.onExit?.(exit));

  return new Promise<FanotifyHelper>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("fanotify helper: no ready line in time"));
    }, nativeLimits.readyTimeoutMs);
    ready = () => {
      clearTimeout(timer);
      resolve(helper);
    };
    exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`fanotify helper exited before ready (${exit.code ?? exit.signal}): ${exit.stderr}`));
    });
  });
}

/**
 * Can this kernel and filesystem run the native mode? Runs the helper's --probe: the same
 * checks and marks as a real start, then exit. `reason` is the helper's own sentence (not
 * ext4, not a mount root, kernel without pre-content events) or why it could not run.
 */
export async function probeFanotify(
  binary: string,
  mountRoot: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const child = spawn(binary, [mountRoot, "--probe"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("latin1").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on("error", (error) => resolve({ code: null, error }));
    child.on("close", (code) => resolve({ code }));
  });
  if (exit.error) return { ok: false, reason: `cannot run ${binary}: ${exit.error.message}` };
  if (exit.code === 0 && out.startsWith('{"t":"ready"')) return { ok: true };
  const reason = err.trim().replace(/^cubicle-fanotify: /, "");
  return { ok: false, reason: reason || `helper exited with ${exit.code}` };
}

/** Calls `onLine` for each newline-terminated line; the helper writes only ASCII (bytes are escaped). */
function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("latin1");
  stream.on("data", (chunk: string) => {
    rest += chunk;
    let start = 0;
    for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n", start)) {
      onLine(rest.slice(start, nl));
      start = nl + 1;
    }
    rest = rest.slice(start);
    if (rest.length > nativeLimits.lineBytesMax) rest = "";
  });
}

async function raceTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
