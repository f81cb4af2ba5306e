/**
 * Which past revisions can still be read, and pruning the versions nothing needs.
 *
 * A revision R is readable when it is the live one, a snapshot pins it, or the history
 * window is on and R is at or after `history_from`, the oldest revision whose every
 * version is kept, and is not a state a run passed through (`run_spans`: a run keeps one
 * version per file, store/history.ts `collapses`). The window (a plan's, in milliseconds; 0 keeps no history) slides:
 * each maintenance pass moves `history_from` to the oldest revision that was live within
 * the window, then deletes row versions that died by then and that no snapshot pins,
 * giving their chunk references back (a blob's `refs` counts every row version).
 */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Store } from "../store.ts";

function metaValue(store: Store, key: string): number | null {
  return store.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
}

function setMeta(store: Store, key: string, value: number): void {
  store.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
}

export function historyWindowMs(store: Store): number {
  return metaValue(store, "history_ms") ?? 0;
}

/**
 * Sets how long history is kept. Turning it on keeps everything from the live revision
 * onward (older versions were not kept); turning it off lets the next pass prune all but
 * the snapshots' versions.
 */
export function setHistoryWindow(store: Store, windowMs: number): void {
  const before = historyWindowMs(store);
  if (before === windowMs) return;
  setMeta(store, "history_ms", windowMs);
  if (before === 0) setMeta(store, "history_from", store.meta("revision"));
  store.retentionChanged();
}

/**
 * A run that replaced its own versions passed through the revisions they were alive in
 * without keeping them (store/history.ts `collapses`): the span around `rev`, if any, with the run
 * and the first revision after it.
 */
export function runSpanAt(store: Store, rev: number): { actor: string; toRev: number } | null {
  const row = store.sql
    .exec<{ actor: string; to_rev: number }>(
      "SELECT actor, to_rev FROM run_spans WHERE from_rev <= ? AND ? < to_rev ORDER BY to_rev DESC LIMIT 1",
      rev,
      rev,
    )
    .toArray()[0];
  return row ? { actor: row.actor, toRev: row.to_rev } : null;
}

/**
 * How the tree at `rev` can be read back exactly: as the live revision or one inside the
 * history window (`revision`), only through a snapshot pinning it (`snapshot`), or not at all.
 */
export function readableBy(store: Store, rev: number): "revision" | "snapshot" | null {
  const live = store.meta("revision");
  if (!Number.isSafeInteger(rev) || rev < 0 || rev > live) return null;
  if (rev === live) return "revision";
  const inWindow =
    historyWindowMs(store) > 0 && rev >= (metaValue(store, "history_from") ?? live) && runSpanAt(store, rev) === null;
  if (inWindow) return "revision";
  return store.sql.exec("SELECT 1 FROM snapshots WHERE rev = ?", rev).toArray().length > 0 ? "snapshot" : null;
}

/** Whether the tree at `rev` can be read back exactly. */
export function isReadable(store: Store, rev: number): boolean {
  return readableBy(store, rev) !== null;
}

/**
 * A version reference as the API takes it: a snapshot id (`snap_…`), a revision number, or
 * `live`. ENOENT for an unknown snapshot, and for a revision no longer (or not yet) kept: the
 * version does not exist to be read, which the API answers 404, as any missing resource (a
 * client cannot know from the contract which revisions are kept). EINVAL for a malformed one.
 */
export function revisionOf(store: Store, ref: string | number): FsResult<{ revision: number; snapshotId?: string }> {
  if (ref === "live") return { ok: true, revision: store.meta("revision") };
  if (typeof ref === "string" && ref.startsWith("snap_")) {
    const row = store.sql.exec<{ rev: number }>("SELECT rev FROM snapshots WHERE id = ?", ref).toArray()[0];
    return row ? { ok: true, revision: row.rev, snapshotId: ref } : fail("ENOENT", `no such snapshot: ${ref}`);
  }
  const rev = typeof ref === "number" ? ref : /^\d{1,15}$/.test(ref) ? Number(ref) : Number.NaN;
  if (Number.isNaN(rev)) return fail("EINVAL", `not a revision, snapshot id or "live": ${ref}`);
  if (!isReadable(store, rev)) return fail("ENOENT", whyNotKept(store, rev));
  return { ok: true, revision: rev };
}

function whyNotKept(store: Store, rev: number): string {
  const live = store.meta("revision");
  if (rev > live) return `revision ${rev} is in the future (the workspace is at ${live})`;
  const span = historyWindowMs(store) > 0 && rev >= historyFrom(store) ? runSpanAt(store, rev) : null;
  if (span) {
    return `revision ${rev} is a state ${span.actor} passed through while it ran; a run keeps one version per file, so read revision ${span.toRev} or later`;
  }
  return `revision ${rev} is no longer kept: it is older than the history window and no snapshot pins it`;
}

/** The oldest readable revision outside snapshots (the live one when no window is on). */
export function historyFrom(store: Store): number {
  const live = store.meta("revision");
  return historyWindowMs(store) > 0 ? (metaValue(store, "history_from") ?? live) : live;
}

/** Slides the window and deletes at most `max` unneeded versions per table; `remaining` says whether to run again. */
export function pruneHistory(
  store: Store,
  max: number = workspaceLimits.historyRowsPerPass,
): { pruned: number; remaining: boolean } {
  const windowMs = historyWindowMs(store);
  const live = store.meta("revision");
  let cutoff = live + 1;
  if (windowMs > 0) {
    const firstInWindow = store.sql
      .exec<{ rev: number | null }>("SELECT min(rev) AS rev FROM changes WHERE at_ms >= ?", store.nowMs() - windowMs)
      .one().rev;
    const from = Math.max(metaValue(store, "history_from") ?? live, firstInWindow === null ? live : firstInWindow - 1);
    setMeta(store, "history_from", from);
    cutoff = from;
  }
  // A fork still reading through from here pins its revision as a snapshot does (forks/pins.ts).
  const unpinned = (table: string) =>
    `died_rev <= ? AND NOT EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= ${table}.born_rev AND s.rev < ${table}.died_rev)
     AND NOT EXISTS (SELECT 1 FROM fork_pins p WHERE p.rev >= ${table}.born_rev AND p.rev < ${table}.died_rev)`;
  let pruned = 0;
  pruned += store.sql.exec(
    `DELETE FROM inodes_hist WHERE (ino, born_rev) IN (SELECT ino, born_rev FROM inodes_hist WHERE ${unpinned("inodes_hist")} LIMIT ?)`,
    cutoff,
    max,
  ).rowsWritten;
  pruned += store.sql.exec(
    `DELETE FROM dirents_hist WHERE (parent, name, born_rev) IN
     (SELECT parent, name, born_rev FROM dirents_hist WHERE ${unpinned("dirents_hist")} LIMIT ?)`,
    cutoff,
    max,
  ).rowsWritten;
  const lists = store.sql
    .exec<{ ino: number; born_rev: number }>(
      `SELECT DISTINCT ino, born_rev FROM file_chunks_hist WHERE ${unpinned("file_chunks_hist")} LIMIT ?`,
      cutoff,
      max,
    )
    .toArray();
  for (const { ino, born_rev } of lists) {
    store.sql.exec(
      `UPDATE blobs SET refs = refs - (SELECT count(*) FROM file_chunks_hist f WHERE f.ino = ? AND f.born_rev = ? AND f.hash = blobs.hash)
       WHERE hash IN (SELECT hash FROM file_chunks_hist WHERE ino = ? AND born_rev = ?)`,
      ino,
      born_rev,
      ino,
      born_rev,
    );
    pruned += store.sql.exec("DELETE FROM file_chunks_hist WHERE ino = ? AND born_rev = ?", ino, born_rev).rowsWritten;
  }
  // A run's passing states are unreadable only while they are inside the window.
  store.sql.exec("DELETE FROM run_spans WHERE to_rev <= ?", cutoff);
  const more = (table: string) =>
    store.sql.exec(`SELECT 1 FROM ${table} WHERE ${unpinned(table)} LIMIT 1`, cutoff).toArray().length > 0;
  return { pruned, remaining: more("inodes_hist") || more("dirents_hist") || more("file_chunks_hist") };
}
