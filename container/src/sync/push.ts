/**
 * Push (mount → object). Dirty paths are pushed as their *current* state (a file's whole
 * content, a directory, a link, or a removal), each with its base (the object's state there
 * as last synced, state.ts), in `apply` batches of at most applyOpsMax ops and applyBytesMax
 * bytes (each batch costs the object a storage commit, so they are large); files larger than
 * a chunk are staged with `upload()`. A path's dirty row is cleared only when the op succeeded
 * and the path did not change again meanwhile, so nothing the container wrote is ever
 * dropped; repeating a push is harmless.
 *
 * Removals go first, deepest first, and a directory that is gone or became a file or link
 * brings removals of everything the object had under it as last synced: the object only ever
 * removes or replaces an empty directory, so whatever is left there is someone else's and
 * stays (docs/container-sync.md, "Conflicts"). Where the object kept its own version (a
 * conflict, or an op that changed nothing), the replica takes the object's version.
 *
 * Every op carries the box's owner (the context's id map) and exact mtime (a bigint lstat),
 * so a pushed file lands with the box's times, not the commit's. A file with several names
 * (st_nlink > 1) whose inode the object already has under another name goes as a `link`,
 * not a second copy. FIFOs, sockets and device nodes are never pushed: the object has no
 * such thing, and they mean nothing outside the box. In the native mode a placeholder is
 * never read as content (computerd's own reads are not held for hydration): one still where
 * the object has it pushes its metadata only, one moved elsewhere is filled first.
 *
 * This file schedules pushes and batches them; reading a path into ops is ./pushRead.ts, and
 * what the object's answer does here is ./pushLand.ts.
 */
import type { BigIntStats } from "node:fs";
import type { WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { trace } from "../trace.ts";
import type { ConflictLog } from "./conflicts.ts";
import type { SyncContext } from "./context.ts";
import type { Hydrator } from "./hydrate.ts";
import { PushLanding } from "./pushLand.ts";
import { Prefetcher } from "./pushPrefetch.ts";
import { type Item, lstatBig, type PathRead, PushReader } from "./pushRead.ts";

export class Pusher {
  private readonly ctx: SyncContext;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private firstTouchMs = 0;
  private lastTouchMs = 0;
  /** Reads the replica's dirty paths into ops (./pushRead.ts). */
  private readonly reader: PushReader;
  /** Native mode: written files' content, read while the command runs (./pushPrefetch.ts). */
  private readonly prefetcher: Prefetcher;
  /** Takes the object's answers (./pushLand.ts): what landed, what was refused, conflicts. */
  private readonly landing: PushLanding;
  /** Conflicts met while pushing, for the outcomes of the commands they happened under. */
  readonly conflicts: ConflictLog;

  /**
   * The first round of pushes a new session starts with (what a dropped session or a killed
   * daemon left pending), and how to say it ended. One round, not every push until nothing is
   * dirty, which a process that keeps writing would never let happen.
   */
  private resuming: Promise<void> = Promise.resolve();
  private resumeEnded: (() => void) | null = null;

  constructor(ctx: SyncContext, hydrator: Hydrator, requestPull: () => unknown = () => {}) {
    this.ctx = ctx;
    this.landing = new PushLanding(ctx, requestPull);
    this.prefetcher = new Prefetcher(ctx);
    this.reader = new PushReader(ctx, hydrator, this.landing.unlinkable, this.prefetcher);
    this.conflicts = this.landing.conflicts;
    ctx.session.onSession(() => {
      this.landing.refused.clear();
      this.resuming = new Promise((resolve) => {
        this.resumeEnded = resolve;
      });
      void this.kick().finally(() => this.roundEnded());
    });
  }

  /**
   * Resolves once the changes pending when the session began were pushed: a command started
   * after a restart then sees the object's version wherever a conflict kept it.
   */
  resumed(): Promise<void> {
    return this.resuming;
  }

  private roundEnded(): void {
    const ended = this.resumeEnded;
    this.resumeEnded = null;
    ended?.();
  }

  /** Called on every local change: pushes once the mount was quiet for pushDebounceMs (or pushDelayMsMax passed). */
  touched(): void {
    const now = Date.now();
    this.lastTouchMs = now;
    if (this.timer) return;
    this.firstTouchMs = now;
    this.arm(daemonLimits.pushDebounceMs);
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const now = Date.now();
      const quietMs = now - this.lastTouchMs;
      if (quietMs < daemonLimits.pushDebounceMs && now - this.firstTouchMs < daemonLimits.pushDelayMsMax) {
        this.arm(daemonLimits.pushDebounceMs - quietMs);
        return;
      }
      this.timer = null;
      this.kick();
    }, delayMs);
  }

  /** Native mode: files the journal reported written, whose content is read before their push (./pushPrefetch.ts). */
  written(paths: readonly string[]): void {
    this.prefetcher.written(paths);
  }

  kick(): Promise<void> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /**
   * Pushes everything dirty now; resolves with the object's revision after. `retryRefused`
   * (an explicit flush from the object) also retries paths the object refused before.
   */
  async flush(retryRefused = false): Promise<number> {
    while (this.running) await this.running;
    if (retryRefused) this.landing.refused.clear();
    await this.kick();
    return this.ctx.revision.value;
  }

  private async run(): Promise<void> {
    for (;;) {
      const ws = this.ctx.session.workspace;
      if (!ws) return;
      const paths = this.ctx.dirty
        .list()
        .filter((p) => this.landing.refused.get(p) !== this.ctx.dirty.gen(p))
        .sort();
      if (paths.length === 0) return;
      try {
        await this.pushPaths(ws, paths);
      } catch (err) {
        this.ctx.log(`push failed: ${(err as Error).message}`);
        return;
      }
      this.roundEnded();
    }
  }

  private async pushPaths(ws: WorkspaceSyncApi, paths: string[]): Promise<void> {
    const { replica, state, dirty } = this.ctx;
    const gone: string[] = [];
    const present: string[] = [];
    const under = new Set<string>();
    // Each path's state is read once, here, and its ops built from it below; its generation is
    // read first, so a change after the read keeps the path dirty. Its base (the object's state
    // there as last synced) changes only when its own push lands (a pull leaves dirty paths
    // alone), so it holds for the whole pass; the rows are read for all paths in two statements.
    const reads = new Map<string, PathRead>();
    const bases = state.syncedOf(paths);
    const rows = state.filesOf(paths);
    trace(`push ${paths.length} paths`);
    for (const path of paths) {
      const gen = dirty.gen(path);
      let st: BigIntStats | null;
      try {
        st = lstatBig(replica.local(path));
      } catch (err) {
        if (!tooLong(err)) throw err;
        // Gone with an ancestor computerd can name: pushed as gone. Otherwise it stays in the
        // box alone until it changes again, and every other path is pushed as usual.
        if (!goneAbove(replica, path)) {
          this.leaveUnnamed(path, gen);
          continue;
        }
        st = null;
      }
      const base = bases.get(path) ?? null;
      reads.set(path, { gen, st, base, row: rows.get(path) });
      (st ? present : gone).push(path);
      if (!st?.isDirectory() && base?.type === "dir") {
        for (const child of state.syncedUnder(path)) if (!dirty.has(child)) under.add(child);
      }
    }
    let batch: Item[] = [];
    let batchBytes = 0;
    // One batch is applied on the object while the next is read here; they land in order.
    let sending: Promise<void> = Promise.resolve();
    const sendBatch = async () => {
      const full = batch;
      batch = [];
      batchBytes = 0;
      await sending;
      sending = this.send(ws, full);
      // Awaited before the next batch goes or the pass ends; a failure surfaces there.
      sending.catch(() => {});
    };
    const add = async (items: Item[]) => {
      const bytes = items.reduce((sum, { op }) => sum + (op.op === "write" ? op.bytes.byteLength : 0), 0);
      const full =
        batch.length + items.length > wireLimits.applyOpsMax || batchBytes + bytes > wireLimits.applyBytesMax;
      if (full && batch.length > 0) await sendBatch();
      batch.push(...items);
      batchBytes += bytes;
    };
    // Replica inodes pushed whole in this pass, so a second name of one goes as a link to it.
    const pushed = new Map<bigint, string>();
    // Children sort after their parent, so reverse order removes a directory's entries before it.
    const removals = [...new Set([...gone, ...under])].sort().reverse();
    try {
      for (const path of [...removals, ...present.sort()]) {
        if (!dirty.has(path)) {
          if (under.has(path)) await add([{ op: { op: "remove", path, base: state.synced(path) }, gen: null }]);
          continue;
        }
        const read = reads.get(path);
        if (!read) continue;
        let items: Item[];
        try {
          items = await this.reader.itemsFor(ws, path, read, pushed);
        } catch (err) {
          if (!tooLong(err)) throw err;
          this.leaveUnnamed(path, read.gen);
          continue;
        }
        if (items.length === 0) {
          // FIFOs, sockets and devices have no place on the object; nothing to push.
          dirty.clearIf(path, read.gen);
          continue;
        }
        await add(items);
      }
      trace("push read");
      if (batch.length > 0) await sendBatch();
    } finally {
      await sending;
    }
  }
  /**
   * A path of up to PATH_MAX in the box is longer than that with the replica's prefix, and
   * computerd cannot name it there (ENAMETOOLONG): it is held back like a path the object
   * refused, until it changes again or a new session starts, instead of failing the whole
   * pass (which stopped every push for good once a command made such a path).
   */
  private leaveUnnamed(path: string, gen: number): void {
    this.landing.refused.set(path, gen);
    this.ctx.log(`push ${path.slice(0, 200)}…: the replica cannot name it (ENAMETOOLONG); it stays in the box`);
  }

  private async send(ws: WorkspaceSyncApi, batch: Item[]): Promise<void> {
    await this.ctx.lock.run(async () => {
      trace(`apply ${batch.length}`);
      const result = await ws.apply(batch.map((item) => item.op));
      trace("applied");
      await this.landing.land(ws, batch, result);
      trace("landed");
    });
  }
}

const tooLong = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === "ENAMETOOLONG";

/** Whether the nearest ancestor of `path` that computerd can name on the replica is gone (so `path` is too). */
function goneAbove(replica: SyncContext["replica"], path: string): boolean {
  for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) {
    try {
      return lstatBig(replica.local(path.slice(0, at))) === null;
    } catch (err) {
      if (!tooLong(err)) throw err;
    }
  }
  return false;
}
