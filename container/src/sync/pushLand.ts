/**
 * What the object's answer to a push batch does here. An op that landed clears its path's
 * dirty row (unless the path changed again meanwhile) and records what the object now holds
 * there, the base of the next push; its revisions are this daemon's own, which the pull
 * skips. Where the object kept its own version (a conflict, or an op that changed nothing),
 * the replica takes the object's version, once nothing is pending under the path any more.
 * A refused op stays dirty and is retried once it changes or a new session starts; a refused
 * `link` is sent as content next round. ./push.ts sends the batches.
 */
import type { ApplyResult, RemoteEntry, SyncOp, WireError, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { applyEntryOrSkip } from "./apply.ts";
import { ConflictLog } from "./conflicts.ts";
import type { SyncContext } from "./context.ts";
import type { Item } from "./pushRead.ts";

/** Takes the object's answers to one Pusher's batches. */
export class PushLanding {
  private readonly ctx: SyncContext;
  /** Paths the object refused, with the generation refused: retried once they change or a new session starts. */
  readonly refused = new Map<string, number>();
  /** Paths whose object version the replica takes once nothing under them is pending any more. */
  private readonly deferred = new Set<string>();
  /** Conflicts met while pushing, for the outcomes of the commands they happened under. */
  readonly conflicts = new ConflictLog();
  /** Paths whose `link` the object refused (the other name went meanwhile): pushed as content instead. */
  readonly unlinkable = new Set<string>();
  /** Asks for a pull (the Puller's `request`): a conflict copy is the object's revision, not this daemon's. */
  private readonly requestPull: () => unknown;

  constructor(ctx: SyncContext, requestPull: () => unknown) {
    this.ctx = ctx;
    this.requestPull = requestPull;
  }

  /** Takes the object's answer (`result`) to `batch`; runs under the sync lock. */
  async land(ws: WorkspaceSyncApi, batch: readonly Item[], result: ApplyResult | WireError): Promise<void> {
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
    applyEntryOrSkip(this.ctx, path, entry);
  }

  /** Brings down the object's version of deferred paths that nothing is pending under any more. */
  private async settleDeferred(ws: WorkspaceSyncApi): Promise<void> {
    const ready = [...this.deferred].filter((path) => !this.ctx.dirty.hasAtOrUnder(path));
    if (ready.length === 0) return;
    for (const path of ready) this.deferred.delete(path);
    const entries = await ws.lstatMany(ready.slice(0, wireLimits.lstatPathsMax));
    await this.ctx.beforeApply();
    ready.forEach((path, i) => {
      if (i < wireLimits.lstatPathsMax) applyEntryOrSkip(this.ctx, path, entries[i] ?? null);
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
