/**
 * Push (mount → object). Dirty paths are pushed as their *current* state (a file's whole
 * content, a directory, a link, or a removal), each with its base (the object's state there
 * as last synced, state.ts), in `apply` batches of at most applyOpsMax ops and applyBytesMax
 * bytes (each batch costs the object a storage commit, so they are large); files larger than
 * a chunk are staged with `upload()`. A path's dirty row is cleared only when the op succeeded and the path did not change again meanwhile, so nothing
 * the container wrote is ever dropped; repeating a push is harmless.
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
 */
import { type BigIntStats, constants, lstatSync, readFileSync, readlinkSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import type { RemoteEntry, SyncAttrs, SyncOp, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { materialize, placeholderOf } from "../native/placeholders.ts";
import { applyEntry } from "./apply.ts";
import { ConflictLog } from "./conflicts.ts";
import type { SyncContext } from "./context.ts";
import type { Hydrator } from "./hydrate.ts";
import { type IdMap, wireTime } from "./metadata.ts";

/**
 * Pushing reads a file the command wrote; O_NOATIME keeps that read from moving its access
 * time, which belongs to the command (a push of a file whose mtime is newer than its atime
 * would otherwise stamp the atime with the time of the push). computerd is root, whom the
 * kernel lets use it on any file.
 */
const readQuietly = constants.O_RDONLY | constants.O_NOATIME;

/**
 * One op of a batch, with the dirty generation of its path when its state was read; null for
 * the removal of a path under a removed directory, which has no dirty row of its own.
 */
interface Item {
  op: SyncOp;
  gen: number | null;
  /** Files: the replica inode and mtime the op was read from, kept in `files` once it lands. */
  local?: { ino: number; mtimeNs: string };
}

/** The box's owner and exact mtime of a replica entry, as the wire carries them. */
function attrsOf(st: BigIntStats, ids: IdMap): Required<SyncAttrs> {
  return { uid: ids.toBox(Number(st.uid)), gid: ids.toBox(Number(st.gid)), ...wireTime(st.mtimeNs) };
}

/**
 * Replica reads are synchronous, as in apply.ts: the replica is a local disk, never the mount,
 * so they cannot wait on FUSE, and a direct syscall costs microseconds where a thread-pool
 * round trip costs tens (per path, several times: a 1,000-file push spent most of its local
 * time in those hops). Only content past daemonLimits.pushSyncReadBytesMax is read
 * asynchronously, so a large file does not hold the event loop.
 */
function lstatBig(file: string): BigIntStats | null {
  try {
    return lstatSync(file, { bigint: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
}

function readContent(file: string, size: bigint): Promise<Buffer | null> {
  if (size > BigInt(daemonLimits.pushSyncReadBytesMax)) return readFile(file, { flag: readQuietly }).catch(() => null);
  try {
    return Promise.resolve(readFileSync(file, { flag: readQuietly }));
  } catch {
    return Promise.resolve(null);
  }
}

export class Pusher {
  private readonly ctx: SyncContext;
  private readonly hydrator: Hydrator;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private firstTouchMs = 0;
  private lastTouchMs = 0;
  /** Paths the object refused, with the generation refused: retried once they change or a new session starts. */
  private readonly refused = new Map<string, number>();
  /** Paths whose object version the replica takes once nothing under them is pending any more. */
  private readonly deferred = new Set<string>();
  /** Conflicts met while pushing, for the outcomes of the commands they happened under. */
  readonly conflicts = new ConflictLog();
  /** Paths whose `link` the object refused (the other name went meanwhile): pushed as content instead. */
  private readonly unlinkable = new Set<string>();

  /**
   * The first round of pushes a new session starts with (what a dropped session or a killed
   * daemon left pending), and how to say it ended. One round, not every push until nothing is
   * dirty, which a process that keeps writing would never let happen.
   */
  private resuming: Promise<void> = Promise.resolve();
  private resumeEnded: (() => void) | null = null;

  /** Asks for a pull (the Puller's `request`): a conflict copy is the object's revision, not this daemon's. */
  private readonly requestPull: () => unknown;

  constructor(ctx: SyncContext, hydrator: Hydrator, requestPull: () => unknown = () => {}) {
    this.ctx = ctx;
    this.hydrator = hydrator;
    this.requestPull = requestPull;
    ctx.session.onSession(() => {
      this.refused.clear();
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
    if (retryRefused) this.refused.clear();
    await this.kick();
    return this.ctx.revision.value;
  }

  private async run(): Promise<void> {
    for (;;) {
      const ws = this.ctx.session.workspace;
      if (!ws) return;
      const paths = this.ctx.dirty
        .list()
        .filter((p) => this.refused.get(p) !== this.ctx.dirty.gen(p))
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
    // read first, so a change after the read keeps the path dirty.
    const stats = new Map<string, BigIntStats>();
    const gens = new Map<string, number>();
    for (const path of paths) {
      gens.set(path, dirty.gen(path));
      const st = lstatBig(replica.local(path));
      if (st) stats.set(path, st);
      (st ? present : gone).push(path);
      if (!st?.isDirectory() && state.synced(path)?.type === "dir") {
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
        const gen = gens.get(path) ?? dirty.gen(path);
        const items = await this.itemsFor(ws, path, gen, stats.get(path) ?? null, pushed);
        if (items.length === 0) {
          // FIFOs, sockets and devices have no place on the object; nothing to push.
          dirty.clearIf(path, gen);
          continue;
        }
        await add(items);
      }
      if (batch.length > 0) await sendBatch();
    } finally {
      await sending;
    }
  }

  /**
   * The ops that make the object hold what the replica holds at `path` (`st`, just read),
   * each with its base: the path's synced state, or, for content written through a link
   * that goes just before it, the linked file's.
   */
  private async itemsFor(
    ws: WorkspaceSyncApi,
    path: string,
    gen: number,
    read: BigIntStats | null,
    pushed: Map<bigint, string>,
  ): Promise<Item[]> {
    const { replica, state } = this.ctx;
    const base = state.synced(path);
    const item = (op: SyncOp, local?: Item["local"]): Item => ({
      op: { ...op, base },
      gen,
      ...(local ? { local } : {}),
    });
    const local = replica.local(path);
    let st = read;
    if (!st) return [item({ op: "remove", path })];
    const row = state.file(path);
    if (this.ctx.native && st.isFile()) {
      const key = placeholderOf(local);
      if (key && !(key.path === path && row?.etag === key.etag)) {
        if (!(await materialize(this.hydrator, local, key))) throw new Error(`cannot fill ${path} to push it`);
        st = lstatBig(local);
        if (!st) return [item({ op: "remove", path })];
      } else if (key) {
        return [item({ op: "setattr", path, mode: Number(st.mode & 0o7777n), ...attrsOf(st, this.ctx.ids) })];
      }
    }
    const mode = Number(st.mode & 0o7777n);
    const attrs = attrsOf(st, this.ctx.ids);
    if (st.isDirectory()) return [item({ op: "mkdir", path, mode, ...attrs })];
    if (st.isSymbolicLink()) {
      // A link whose owner or times alone changed keeps its synced target (dirty.ts says why).
      const kept = this.ctx.dirty.onlyAttributes(path) && base?.type === "symlink" ? base.target : null;
      return [item({ op: "symlink", path, target: kept ?? readlinkSync(local), ...attrs })];
    }
    // A FIFO, socket or device node stays on the box; where it replaced what the object
    // had, that goes (the object cannot hold the new thing, and must not keep the old).
    if (!st.isFile()) return base ? [item({ op: "remove", path })] : [];
    // A placeholder whose metadata changed: the object already has the content.
    if (!this.ctx.native && row && !row.hydrated) return [item({ op: "setattr", path, mode, ...attrs })];
    const here = { ino: Number(st.ino), mtimeNs: String(st.mtimeNs) };
    const link = st.nlink > 1n ? this.linkFor(path, st, pushed) : null;
    if (link?.unchanged) return [item(link.op, here)];
    let content: SyncOp;
    const nlink = Number(st.nlink);
    if (st.size <= BigInt(wireLimits.chunkBytesMax)) {
      const bytes = await readContent(local, st.size);
      if (bytes === null) return [item({ op: "remove", path })];
      const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      content = { op: "write", path, bytes: view, mode, nlink, ...attrs };
    } else {
      content = { op: "commitUpload", path, uploadId: await this.upload(ws, local), mode, nlink, ...attrs };
    }
    pushed.set(st.ino, path);
    if (!link) return [item(content, here)];
    // A link whose content may have changed since its other name was pushed: link, then
    // write through it, on the base the link leaves there (the other name's synced state).
    const existing = link.op.op === "link" ? link.op.existing : path;
    return [item(link.op), { op: { ...content, base: state.synced(existing) }, gen, local: here }];
  }

  /**
   * A `link` op when `path` is a new name of a file the object already has under another
   * name: pushed earlier in this pass, or pushed before and still that same replica inode.
   * `unchanged` when nothing can have changed the content since (its mtime is the one pushed).
   */
  private linkFor(
    path: string,
    st: BigIntStats,
    pushed: Map<bigint, string>,
  ): { op: SyncOp; unchanged: boolean } | null {
    const { state } = this.ctx;
    if (this.unlinkable.has(path) || state.file(path)?.localIno === Number(st.ino)) return null;
    const earlier = pushed.get(st.ino);
    if (earlier !== undefined && earlier !== path)
      return { op: { op: "link", path, existing: earlier }, unchanged: true };
    for (const other of state.filesWithLocalIno(Number(st.ino))) {
      if (other.path === path || !other.hydrated) continue;
      // The row may outlive its file: a filesystem reuses a freed inode number, so the other
      // name must still be this very file here, or the object is asked to link to a name it
      // no longer has (and the content written through that link lands on the wrong base).
      if (lstatBig(this.ctx.replica.local(other.path))?.ino !== st.ino) continue;
      return {
        op: { op: "link", path, existing: other.path },
        unchanged: other.localMtimeNs === String(st.mtimeNs) && other.size === Number(st.size),
      };
    }
    return null;
  }

  private async upload(ws: WorkspaceSyncApi, local: string): Promise<string> {
    const upload = await ws.upload();
    const fh = await open(local, readQuietly);
    try {
      const buf = Buffer.allocUnsafe(wireLimits.chunkBytesMax);
      for (let offset = 0; ; ) {
        const { bytesRead } = await fh.read(buf, 0, buf.byteLength, offset);
        if (bytesRead === 0) break;
        await upload.append(new Uint8Array(buf.buffer, buf.byteOffset, bytesRead).slice());
        offset += bytesRead;
      }
      return await upload.id();
    } finally {
      await fh.close();
      (upload as Partial<Disposable>)[Symbol.dispose]?.();
    }
  }

  private async send(ws: WorkspaceSyncApi, batch: Item[]): Promise<void> {
    await this.ctx.lock.run(async () => {
      const result = await ws.apply(batch.map((item) => item.op));
      if (!result.ok) {
        for (const { op, gen } of batch) if (gen !== null) this.refused.set(op.path, gen);
        this.ctx.log(`apply refused: ${result.code} ${result.message}`);
        return;
      }
      const failed = new Map(result.failures.map((f) => [f.index, f]));
      const conflicts = new Map((result.conflicts ?? []).map((c) => [c.index, c]));
      const unchanged = new Set(result.unchanged ?? []);
      // Where the object kept its version, the replica may take it (adopt): what the box
      // changed since these ops were read must be known first (native mode's journal).
      if (conflicts.size > 0 || unchanged.size > 0) await this.ctx.beforeApply();
      // The batch's rows (dirty, files, synced) in one commit rather than three per path.
      this.ctx.state.transaction(() =>
        batch.forEach(({ op, gen, local }, i) => {
          const rev = result.revs[i] ?? 0;
          const conflict = conflicts.get(i);
          // A conflict copy is not the replica's: its revision must come down with the next pull.
          if (rev > 0 && !conflict) this.ownRevisions(result.revsFrom?.[i] ?? rev - 1, rev);
          const failure = failed.get(i);
          if (failure && op.op === "link") {
            // Not refused for good: the next round pushes the content instead.
            this.unlinkable.add(op.path);
            this.ctx.log(`push ${op.path}: link refused (${failure.code}), sending its content`);
            return;
          }
          if (failure) {
            if (gen !== null) this.refused.set(op.path, gen);
            this.ctx.log(`push ${op.path}: ${failure.code} ${failure.message}`);
            return;
          }
          const entry = result.entries[i] ?? null;
          if (conflict) {
            this.conflicts.add(op.path, conflict.savedAs);
            this.ctx.log(
              conflict.savedAs === null
                ? `conflict: ${op.path} changed on the workspace since the container's ${op.op} was made; the workspace's version stays and the ${op.op} is dropped`
                : `conflict: ${op.path} changed on the workspace since the container's change was made; the workspace's version stays, the container's is saved as ${conflict.savedAs}`,
            );
          }
          if (conflict || unchanged.has(i)) {
            this.adopt(op.path, gen, entry);
            return;
          }
          if (op.op !== "link") this.unlinkable.delete(op.path);
          this.remember(op.path, op, entry, local);
          // A link followed by its content: the path is clean only once the content landed too.
          if (gen !== null && batch[i + 1]?.op.path !== op.path) this.ctx.dirty.clearIf(op.path, gen);
        }),
      );
      if (result.revision > this.ctx.revision.value) this.ctx.revision.value = result.revision;
      // The copies the object saved come down with a pull asked for here, not with the object's
      // notice of them, which a session still opening does not get (ComputerLink): the next
      // command waits for this pull (session/computer.ts), so it sees them.
      if ([...conflicts.values()].some((c) => c.savedAs !== null)) void this.requestPull();
      await this.settleDeferred(ws);
    });
  }

  /**
   * Remembers the revisions in (`from`, `to`] as this daemon's own, so the pull skips them
   * (and, when nothing else changed, asks the object nothing: pull.ts, allOwn). One op may log
   * several: a directory made, then its owner and times set. At most applyOpsMax per op are
   * taken, a bound should an answer be wrong.
   */
  private ownRevisions(from: number, to: number): void {
    const { ownRevs } = this.ctx;
    for (let r = Math.max(from + 1, to - wireLimits.applyOpsMax); r <= to; r++) {
      if (ownRevs.size >= daemonLimits.ownRevsKeptMax) return;
      ownRevs.add(r);
    }
  }

  /**
   * The object kept its own version at `path` (`entry`). Unless the container changed the
   * path again since its state was read (then it stays pending, on the same base, and is
   * pushed again), the replica takes the object's version: pull skipped it while the path
   * was dirty. A directory with changes still pending under it waits for them.
   */
  private adopt(path: string, gen: number | null, entry: RemoteEntry | null): void {
    if (gen !== null && !this.ctx.dirty.clearIf(path, gen)) return;
    if (this.ctx.dirty.hasAtOrUnder(path)) {
      this.deferred.add(path);
      return;
    }
    applyEntry(this.ctx, path, entry);
  }

  /** Brings down the object's version of deferred paths that nothing is pending under any more. */
  private async settleDeferred(ws: WorkspaceSyncApi): Promise<void> {
    const ready = [...this.deferred].filter((path) => !this.ctx.dirty.hasAtOrUnder(path));
    if (ready.length === 0) return;
    for (const path of ready) this.deferred.delete(path);
    const entries = await ws.lstatMany(ready.slice(0, wireLimits.lstatPathsMax));
    await this.ctx.beforeApply();
    ready.forEach((path, i) => {
      if (i < wireLimits.lstatPathsMax) applyEntry(this.ctx, path, entries[i] ?? null);
      else this.deferred.add(path);
    });
  }

  /**
   * Records what the object holds at `path` after a push: its ETag, so the next pull does not
   * download the container's own write back, with the object's and the replica's inode
   * numbers (hard links) and the replica's mtime (so a later second name can go as a link
   * alone); and its synced state, the base of the next push.
   */
  private remember(path: string, op: SyncOp, entry: RemoteEntry | null, local?: { ino: number; mtimeNs: string }) {
    const { state } = this.ctx;
    if (entry?.type === "file" && entry.etag) {
      const metadataOnly = op.op === "chmod" || op.op === "setattr";
      const hydrated = !metadataOnly || (state.file(path)?.hydrated ?? true);
      state.putFile({
        path,
        etag: entry.etag,
        size: entry.size,
        hydrated,
        ino: entry.ino ?? null,
        localIno: local?.ino ?? null,
        localMtimeNs: local?.mtimeNs ?? (metadataOnly ? (state.file(path)?.localMtimeNs ?? null) : null),
      });
    } else {
      state.forgetFile(path);
    }
    if (entry) state.putSynced(entry);
    else state.forgetSynced(path);
  }
}
