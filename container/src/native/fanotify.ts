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
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { constants } from "node:os";
import { type ControlChannel, openControlChannel } from "./control.ts";
import { nativeLimits } from "./limits.ts";
import {
  type Change,
  command,
  type HelperMessage,
  type HydrateRequest,
  type Placement,
  type PlaceResult,
  parseLine,
  readLines,
} from "./protocol.ts";

export type { Change, ChangeKind, HydrateRequest, Placement, PlaceResult } from "./protocol.ts";

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

export interface FanotifyHelper {
  readonly pid: number;
  /**
   * Makes a placeholder at `path`, atomically replacing what is there. Placements run on
   * several threads: await one before placing the same path again.
   */
  place(placement: Placement): Promise<PlaceResult>;
  /**
   * Makes many placeholders, as `place` each, with their paths below `under` (a directory
   * path, "" for the root): one command write and one promise for all of them, where a
   * walk's 36,000 placements each cost a promise, a map entry and a write of their own.
   */
  placeMany(placements: readonly Placement[], under?: string): Promise<PlaceResult[]>;
  /**
   * Puts the placeholder mark on the regular file at `path` (relative to the mount root, no
   * symlinks), blocking until the helper answers: for a placeholder computerd made itself, at
   * a name no process can reach yet, before it moves it into place. Returns 0 or an errno.
   */
  watchSync(path: string): number;
  drain(): Promise<void>;
  stop(): Promise<HelperExit>;
  readonly exited: Promise<HelperExit>;
  stats(): FanotifyStats;
}

const { EIO } = constants.errno;

/** Placements sent in one placeMany, answered one by one. */
interface PlaceBatch {
  first: number;
  results: PlaceResult[];
  /** Answers still to come. */
  left: number;
  resolve: (results: PlaceResult[]) => void;
}

/** Starts the helper; resolves once both groups are marked, rejects with the helper's reason otherwise. */
export async function startFanotify(options: FanotifyOptions): Promise<FanotifyHelper> {
  const helper = new HelperProcess(options);
  await helper.ready();
  return helper;
}

/** One running cubicle-fanotify and the state of the conversation with it. */
class HelperProcess implements FanotifyHelper {
  readonly exited: Promise<HelperExit>;
  private readonly options: FanotifyOptions;
  private readonly control: ControlChannel;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly counters: FanotifyStats = { requests: 0, fills: 0, denials: 0, changes: 0, rescans: 0, stale: 0 };
  /** Answered with content, waiting for `filled`: what to release and report then. */
  private readonly filling = new Map<number, { request: HydrateRequest; release?: () => void | Promise<void> }>();
  private readonly syncWaiters = new Map<number, () => void>();
  /** Placements sent and not all answered, oldest first: each a run of `results.length` seqs from `first`. */
  private readonly placing: PlaceBatch[] = [];
  private syncSeq = 0;
  private placeSeq = 0;
  /** Set once the helper exited: nothing it was asked will be answered. */
  private gone = false;
  private stopping = false;
  private stderr = "";
  private onReady: (() => void) | null = null;

  constructor(options: FanotifyOptions) {
    this.options = options;
    const control = openControlChannel();
    try {
      this.child = spawn(options.binary, [options.mountRoot, "--allow-pid", String(options.allowPid), "--control"], {
        stdio: ["pipe", "pipe", "pipe", control.helperRequests, control.helperAnswers],
      }) as ChildProcessWithoutNullStreams;
    } finally {
      control.handedOver();
    }
    this.control = control;
    // The helper's pipe breaks when it exits; the exit itself is reported through `exited`.
    this.child.stdin.on("error", () => {});
    this.exited = new Promise<HelperExit>((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) =>
        resolve({ code, signal, stderr: this.stderr.trim(), expected: this.stopping });
      // A binary that cannot be run reports `error` and may never `close`.
      this.child.on("error", (error) => {
        this.stderr += `${error.message}\n`;
        done(null, null);
      });
      this.child.on("close", done);
    });
    void this.exited.then((exit) => {
      // Placements it never answered failed.
      this.gone = true;
      this.control.close();
      for (const batch of this.placing.splice(0)) {
        for (let i = 0; i < batch.results.length; i++) batch.results[i] ??= { ok: false, errno: EIO };
        batch.resolve(batch.results);
      }
      options.onExit?.(exit);
    });
    readLines(this.child.stdout, (line) => {
      try {
        this.onMessage(parseLine(line));
      } catch (error) {
        options.log?.(`bad line from the helper: ${(error as Error).message}`);
      }
    });
    readLines(this.child.stderr, (line) => {
      this.stderr = `${this.stderr}${line}\n`.slice(-nativeLimits.stderrKeptBytes);
      options.log?.(line);
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  watchSync(path: string): number {
    return this.gone ? EIO : this.control.watch(path);
  }

  stats(): FanotifyStats {
    return { ...this.counters };
  }

  ready(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill("SIGKILL");
        reject(new Error("fanotify helper: no ready line in time"));
      }, nativeLimits.readyTimeoutMs);
      this.onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      void this.exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`fanotify helper exited before ready (${exit.code ?? exit.signal}): ${exit.stderr}`));
      });
    });
  }

  async place(placement: Placement): Promise<PlaceResult> {
    const [result] = await this.placeMany([placement]);
    return result ?? { ok: false, errno: EIO };
  }

  placeMany(placements: readonly Placement[], under = ""): Promise<PlaceResult[]> {
    if (this.gone) return Promise.resolve(placements.map(() => ({ ok: false, errno: EIO })));
    if (placements.length === 0) return Promise.resolve([]);
    const first = this.placeSeq + 1;
    this.placeSeq += placements.length;
    let lines = "";
    for (const [i, placement] of placements.entries()) lines += command.place(first + i, placement, under);
    const done = new Promise<PlaceResult[]>((resolve) => {
      this.placing.push({ first, results: new Array(placements.length), left: placements.length, resolve });
    });
    this.send(lines);
    return done;
  }

  private onPlaced(seq: number, result: PlaceResult): void {
    // Batches are answered roughly in order: the one this seq belongs to is near the front.
    const index = this.placing.findIndex((b) => seq >= b.first && seq < b.first + b.results.length);
    const batch = this.placing[index];
    if (!batch || batch.results[seq - batch.first]) return;
    batch.results[seq - batch.first] = result;
    if (--batch.left > 0) return;
    this.placing.splice(index, 1);
    batch.resolve(batch.results);
  }

  async drain(): Promise<void> {
    const n = ++this.syncSeq;
    const synced = new Promise<void>((resolve) => this.syncWaiters.set(n, resolve));
    this.send(command.sync(n));
    const outcome = await raceTimeout(
      Promise.race([synced.then(() => "synced" as const), this.exited.then(() => "exited" as const)]),
      nativeLimits.drainTimeoutMs,
    );
    this.syncWaiters.delete(n);
    if (outcome !== "synced") throw new Error(`fanotify helper did not drain: ${outcome ?? "timed out"}`);
  }

  async stop(): Promise<HelperExit> {
    this.stopping = true;
    this.child.stdin.end();
    const exit = await raceTimeout(this.exited, nativeLimits.stopTimeoutMs);
    if (exit) return exit;
    this.child.kill("SIGKILL");
    return this.exited;
  }

  private send(line: string): void {
    if (this.child.stdin.writable) this.child.stdin.write(line);
  }

  private onMessage(msg: HelperMessage): void {
    const { options, counters } = this;
    switch (msg.t) {
      case "ready":
        this.onReady?.();
        break;
      case "hydrate":
        void this.answer({ id: msg.id, key: msg.key, ino: msg.ino, size: msg.size });
        break;
      case "filled":
        this.onFilled(msg.id, msg.errno);
        break;
      case "dropped":
        options.onDropped?.({ ino: msg.ino, key: msg.key });
        break;
      case "placed":
        this.onPlaced(msg.seq, msg.errno ? { ok: false, errno: msg.errno } : { ok: true, ino: msg.ino ?? 0 });
        break;
      case "change":
        counters.changes++;
        options.onChange({
          kinds: msg.k,
          path: msg.path,
          isDir: msg.dir,
          ...(msg.from !== undefined && { from: msg.from }),
          ...(msg.ino !== undefined && { ino: msg.ino }),
        });
        break;
      case "rescan":
        counters.rescans++;
        options.onRescan(msg.reason);
        break;
      case "stale":
        counters.stale += msg.count;
        options.onStale?.(msg.count);
        break;
      case "synced":
        this.syncWaiters.get(msg.n)?.();
        this.syncWaiters.delete(msg.n);
        break;
    }
  }

  /** Asks `hydrate`, within the time limit, and passes its answer on. */
  private async answer(request: HydrateRequest): Promise<void> {
    const { options } = this;
    this.counters.requests++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), nativeLimits.hydrateTimeoutMs);
      // Once the helper is gone nobody waits for this answer; the timer must not keep Node alive.
      timer.unref();
    });
    const pending = options.hydrate(request).catch((error: Error): HydrateAnswer => {
      options.log?.(`hydrate ${request.key}: ${error.message}`);
      return { errno: EIO };
    });
    const result = await Promise.race([pending, timeout]);
    clearTimeout(timer);
    if (result === "timeout") {
      options.log?.(`hydrate ${request.key}: no answer in ${nativeLimits.hydrateTimeoutMs} ms, readers got EIO`);
      this.deny(request.id, EIO);
      // A late answer still owns its file.
      const late = await pending;
      if ("file" in late) await late.release?.();
    } else if ("file" in result) {
      this.filling.set(request.id, { request, release: result.release });
      this.send(command.fill(request.id, result.file));
    } else if ("bytes" in result && result.bytes.byteLength <= nativeLimits.inlineBytesMax) {
      this.filling.set(request.id, { request });
      this.send(command.data(request.id, result.bytes));
    } else if ("bytes" in result) {
      options.log?.(`hydrate ${request.key}: inline content over ${nativeLimits.inlineBytesMax} bytes`);
      this.deny(request.id, EIO);
    } else {
      this.deny(request.id, result.errno);
    }
  }

  private deny(id: number, errno: number): void {
    this.counters.denials++;
    this.send(command.deny(id, errno));
  }

  private onFilled(id: number, errno: number | undefined): void {
    const fill = this.filling.get(id);
    this.filling.delete(id);
    if (!fill) return;
    if (errno) this.counters.denials++;
    else this.counters.fills++;
    void Promise.resolve(fill.release?.()).catch((error: Error) => this.options.log?.(`release: ${error.message}`));
    this.options.onHydrated?.(fill.request, errno ? { errno } : {});
  }
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
