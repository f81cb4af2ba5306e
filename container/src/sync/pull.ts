/**
 * Pull (object → mount). After `hello` and on every `changed(rev)`, the replica catches up
 * with the object's change log: each changed path's current state is read with `lstatMany`
 * and applied. A fresh replica, or one whose revision the log no longer reaches, walks the
 * whole tree instead. One pull runs at a time; notifications that arrive meanwhile make it
 * run once more.
 */
import { existsSync, readdirSync } from "node:fs";
import type { RemoteEntry, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import type { Placement, PlaceResult } from "../native/protocol.ts";
import { trace } from "../trace.ts";
import { applyEntryOrSkip, placedEntries, walkPlacement } from "./apply.ts";
import type { SyncContext } from "./context.ts";
import { madeSinceDrain } from "./unreported.ts";

/** Entries applied between two yields to the event loop, so FUSE requests are answered during a large walk. */
const applySliceEntries = 256;

type WalkPage = Awaited<ReturnType<WorkspaceSyncApi["walk"]>>;

/** One walk's progress (walkInto). */
interface Walk {
  /** The directory had nothing here and nothing synced: no sweep, so no `seen` rows. */
  fresh: boolean;
  /** Directories this walk created: their files need no check for something already there. */
  made: Set<string>;
  /** Placements sent to the helper and not yet recorded, page by page. */
  placing: Promise<void>;
}

/**
 * A full collection after a whole-workspace walk, when the daemon runs with --expose-gc (and
 * nothing without it). After a walk of `entries` or more, V8's most thorough one ("last
 * resort": full collections until nothing more is freed, compacting, giving the freed pages
 * back); it took 100–350 ms against a plain one's 20–35 ms at load 6–8, which a small walk (a
 * new workspace's cold start) would pay for a few MiB.
 */
const walkCollection = { entries: 4_096 } as const;
const collectGarbage = (entries: number) =>
  (globalThis as { gc?: (options: object) => void }).gc?.({
    type: "major",
    execution: "sync",
    flavor: entries >= walkCollection.entries ? "last-resort" : "regular",
  });

/** Runs a task once no command is waiting or running: work a command's answer need not wait for. */
export type AfterCommands = (task: () => void) => void;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Puller {
  private readonly ctx: SyncContext;
  private running: Promise<void> | null = null;
  private again = false;
  /** Entries the current whole-workspace walk has applied (resync). */
  private entriesWalked = 0;

  private readonly afterCommands: AfterCommands;

  /** `afterCommands` defers the collection that ends a whole-workspace walk; by default it runs at once. */
  constructor(ctx: SyncContext, afterCommands: AfterCommands = (task) => task()) {
    this.ctx = ctx;
    this.afterCommands = afterCommands;
  }

  /** Asks for a pull; resolves when the replica has caught up (or the pull failed and was logged). */
  request(): Promise<void> {
    this.again = true;
    if (!this.running) {
      this.running = this.loop().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** Resolves when no pull is running, so a command starts on the state the object announced. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(): Promise<void> {
    while (this.again) {
      this.again = false;
      const ws = this.ctx.session.workspace;
      if (!ws) return;
      try {
        await this.pullOnce(ws);
      } catch (err) {
        this.ctx.log(`pull failed: ${(err as Error).message}`);
        return;
      }
    }
  }

  private async pullOnce(ws: WorkspaceSyncApi): Promise<void> {
    const { state } = this.ctx;
    let rev = state.appliedRev();
    if (rev === 0) rev = await this.resync(ws);
    for (;;) {
      // Every revision since the last one applied is a push of this daemon's own: nothing to
      // read back. (The object announces each push's revision; asking it for the changes
      // queued behind the next batch's apply and held the lock between a push's batches.)
      const known = this.ctx.revision.value;
      if (known > rev && this.allOwn(rev, known)) {
        this.commit(ws, known);
        return;
      }
      const page = await ws.changes(rev, wireLimits.changesPageMax);
      this.noteRevision(page.revision);
      if (page.oldestRev > rev + 1) {
        rev = await this.resync(ws);
        continue;
      }
      // A push in flight when the page was read may be in it, though not yet in ownRevs:
      // waiting for the lock lets it land and name its revisions first, so its paths are not
      // read back (a directory it made would be walked whole, holding up the next batch).
      await this.ctx.lock.run(async () => {});
      const paths = new Set<string>();
      for (const change of page.changes) {
        if (this.ctx.ownRevs.has(change.rev)) continue;
        for (const p of change.paths) paths.add(p);
      }
      await this.applyPaths(ws, [...paths]);
      const last = page.changes.at(-1)?.rev ?? rev;
      const full = page.changes.length >= wireLimits.changesPageMax;
      rev = full ? last : Math.max(last, page.revision);
      this.commit(ws, rev);
      if (!full) return;
    }
  }

  private async applyPaths(ws: WorkspaceSyncApi, paths: string[]): Promise<void> {
    // Parents first, so a new directory exists before the files changed inside it.
    paths.sort();
    for (let i = 0; i < paths.length; i += wireLimits.lstatPathsMax) {
      const chunk = paths.slice(i, i + wireLimits.lstatPathsMax);
      const entries = await this.ctx.lock.run(async () => {
        const entries = await ws.lstatMany(chunk);
        // Native mode: a change the command made is known only once the journal reported it,
        // so it is drained after the round trip, just before applying; a path it marks dirty
        // is then left alone below, and one changed since is caught by its ctime (apply.ts).
        await this.ctx.beforeApply();
        for (const [j, path] of chunk.entries()) {
          applyEntryOrSkip(this.ctx, path, entries[j] ?? null);
          if (j % applySliceEntries === applySliceEntries - 1) await yieldToLoop();
        }
        return entries;
      });
      // A directory that changed as one path (created, moved here) brings its subtree along.
      for (const entry of entries)
        if (entry?.type === "dir" && !this.ctx.dirty.has(entry.path)) await this.walkInto(ws, entry.path);
    }
  }

  /** Builds the whole replica from `walk('/')`, removing what the object no longer has. Returns the revision it reflects. */
  private async resync(ws: WorkspaceSyncApi): Promise<number> {
    const startedMs = Date.now();
    this.entriesWalked = 0;
    const rev = await this.walkInto(ws, "/");
    const walkedMs = Date.now();
    this.ctx.log(`pull: walked the whole workspace (${this.entriesWalked} entries) in ${walkedMs - startedMs} ms`);
    // The walk's pages (36,000 entries of a large workspace) are garbage now, but V8 keeps
    // the old generation they grew committed, and resident, until it feels pressure. A
    // plain full collection frees the objects and keeps most of the pages; the thorough one
    // took computerd's RssAnon after a 36,000-file first pull from 59–61 to 30–31 MiB
    // (issue 19's daemon memory target, 64). The daemon runs with --expose-gc for it
    // (container/supervisor/limits.ts, daemonNodeFlags). It runs once the command that waited
    // for this walk (a new computer's first) has been answered: its 50–350 ms were on that
    // answer's path.
    const entries = this.entriesWalked;
    this.afterCommands(() => {
      const collectingMs = Date.now();
      collectGarbage(entries);
      trace("walk collected");
      this.ctx.log(`pull: collected garbage after the walk in ${Date.now() - collectingMs} ms`);
    });
    this.commit(ws, rev);
    return rev;
  }

  /**
   * Applies every entry under `dir` and removes local entries the walk did not list (unless
   * dirty). The lock is held for the whole walk: a push landing between reading a page and
   * the sweep would otherwise look like a path the object does not have, and be removed.
   *
   * A walk into a directory that is empty here and that the object's state never reached
   * (a new replica's first pull) has nothing to sweep, so it keeps no `seen` rows either. In
   * the native mode new files are placed by the helper while the next page is fetched.
   */
  private walkInto(ws: WorkspaceSyncApi, dir: string): Promise<number> {
    return this.ctx.lock.run(async () => {
      const { state } = this.ctx;
      const walk: Walk = { fresh: this.isFresh(dir), made: new Set(), placing: Promise.resolve() };
      if (walk.fresh) walk.made.add(dir);
      else state.clearSeen();
      let firstRev = -1;
      // The next page is asked for before this one is applied, so the object lists it meanwhile.
      // (Promise.resolve: an RPC promise is a proxy, whose properties are remote calls.)
      trace(`walk ${dir} page 0 asked`);
      let next: Promise<WalkPage> | null = Promise.resolve(ws.walk(dir, null));
      let pageNo = 0;
      try {
        while (next) {
          const page: WalkPage = await next;
          trace(`walk ${dir} page ${pageNo} received (${page.ok ? page.entries.length : page.code})`);
          pageNo++;
          next = null;
          if (!page.ok) {
            // The directory vanished since it was listed as changed: the next change says so.
            if (page.code === "ENOENT" || page.code === "ENOTDIR") return this.ctx.revision.value;
            throw new Error(`walk ${dir}: ${page.code} ${page.message}`);
          }
          if (firstRev < 0) firstRev = page.revision;
          this.noteRevision(page.revision);
          if (page.next) {
            trace(`walk ${dir} page ${pageNo} asked`);
            next = Promise.resolve(ws.walk(dir, page.next));
            // Awaited on the next turn; a walk that fails before then must not go unhandled.
            next.catch(() => {});
          }
          this.entriesWalked += page.entries.length;
          await this.applyWalkPage(page.entries, walk);
          trace(`walk ${dir} page ${pageNo - 1} applied`);
        }
      } finally {
        await walk.placing;
        trace(`walk ${dir} placements recorded`);
      }
      if (!walk.fresh) await this.sweep(dir);
      return Math.max(firstRev, 0);
    });
  }

  /** Nothing local under `dir` and nothing synced there: a walk only adds. */
  private isFresh(dir: string): boolean {
    const { replica, state, dirty } = this.ctx;
    if (dirty.hasAtOrUnder(dir) || state.hasSyncedUnder(dir)) return false;
    try {
      return readdirSync(replica.quiet(dir)).length === 0;
    } catch {
      return false;
    }
  }

  private async applyWalkPage(entries: RemoteEntry[], walk: Walk): Promise<void> {
    const { state } = this.ctx;
    // Each slice's placements go to the helper at once, so it works while the next is read.
    const placed: { entries: RemoteEntry[]; results: Promise<PlaceResult[]> }[] = [];
    await this.ctx.beforeApply();
    trace("walk page drained");
    for (let i = 0; i < entries.length; i += applySliceEntries) {
      const sliceEntries: RemoteEntry[] = [];
      const placements: Placement[] = [];
      // One transaction per slice: its rows cost one commit, and nothing awaits inside it.
      state.transaction(() => {
        for (const entry of entries.slice(i, i + applySliceEntries)) {
          if (!walk.fresh) state.addSeen(entry.path);
          const placement = walkPlacement(this.ctx, entry, walk.made);
          if (placement) {
            sliceEntries.push(entry);
            placements.push(placement);
            continue;
          }
          const isNew = entry.type === "dir" && !existsSync(this.ctx.replica.local(entry.path));
          applyEntryOrSkip(this.ctx, entry.path, entry);
          if (isNew) walk.made.add(entry.path);
        }
      });
      if (placements.length > 0 && this.ctx.placeMany) {
        placed.push({ entries: sliceEntries, results: this.ctx.placeMany(placements) });
      }
      await yieldToLoop();
    }
    if (placed.length === 0) return;
    // This page's placements are recorded (one transaction) while the next page is fetched.
    const previous = walk.placing;
    trace("walk page placements sent");
    walk.placing = (async () => {
      const results = await Promise.all(placed.map((p) => p.results));
      trace("walk page placements placed");
      await previous;
      const outcomes = placed.flatMap((slice, i) =>
        slice.entries.map((entry, j) => ({ entry, result: results[i]?.[j] as PlaceResult })),
      );
      state.transaction(() => placedEntries(this.ctx, outcomes));
    })();
  }

  private async sweep(dir: string): Promise<void> {
    const { state, replica, dirty } = this.ctx;
    // What the box changed while the walk ran must be known (or stamped) before anything goes.
    await this.ctx.beforeApply();
    const stale: string[] = [];
    for await (const { path, boxOnly } of replica.subtree(dir)) {
      if (boxOnly || state.isSeen(path) || dirty.hasAtOrUnder(path) || madeSinceDrain(this.ctx, path)) continue;
      stale.push(path);
    }
    // A directory listed before something new under it was found stays, with that inside.
    for (const path of stale.filter((p) => !dirty.hasAtOrUnder(p))) {
      await replica.remove(path);
      state.forgetTree(path);
      state.forgetSynced(path);
    }
    // Bases of paths the object no longer has, and the replica never had (or lost): gone too.
    state.forgetSyncedUnseen(dir);
    state.clearSeen();
  }

  /** Whether every revision after `from` up to `to` is one of this daemon's own pushes. */
  private allOwn(from: number, to: number): boolean {
    const { ownRevs } = this.ctx;
    if (to - from > ownRevs.size) return false;
    for (let r = from + 1; r <= to; r++) if (!ownRevs.has(r)) return false;
    return true;
  }

  private commit(ws: WorkspaceSyncApi, rev: number): void {
    const { state, ownRevs } = this.ctx;
    if (rev > state.appliedRev()) state.setAppliedRev(rev);
    this.noteRevision(rev);
    for (const own of ownRevs) if (own <= rev) ownRevs.delete(own);
    ws.ack(rev).catch((err: Error) => this.ctx.log(`ack failed: ${err.message}`));
  }

  private noteRevision(rev: number): void {
    if (rev > this.ctx.revision.value) this.ctx.revision.value = rev;
  }
}
