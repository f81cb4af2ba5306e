/**
 * A path's history: every kept version of the inodes that name has held, newest first,
 * each with the revision it was made in, when, by whom (the change log's actor), what it
 * was, and `readAt`: the version to read it back with (`?at=`). Versions that differ from
 * the one before only in what a user does not see (ctime, link count, a directory's entry
 * count) are folded into it. A version the path cannot be read back at (kept for a
 * snapshot of a revision when another name held it, or about to be pruned) is left out.
 */
import { workspaceLimits } from "../../limits.ts";
import { normalizePath } from "../../paths.ts";
import { type FsResult, fail } from "../errors.ts";
import { INODE_COLUMNS, ROOT_INO } from "../schema.ts";
import type { Inode, InodeType, Store } from "../store.ts";
import { RevisionTree } from "./at.ts";
import { differs } from "./diff.ts";
import { historyFrom, historyWindowMs, readableBy, runSpanAt } from "./retention.ts";

export interface FileVersion {
  /** The revision the version was made in, and the one that ended it (null: it is live). */
  revision: number;
  until: number | null;
  /** When and by whom, while the change log still has the revision (null after compaction). */
  at: string | null;
  actor: string | null;
  op: string | null;
  /** For a version a restore made: the version it went back to (a snapshot id or a revision). */
  restoredTo: string | null;
  /**
   * What to pass as `?at=` to read this version back: its own revision (or the first after
   * it that is kept) as text, or the id of a snapshot that pins it.
   */
  readAt: string;
  type: InodeType;
  size: number;
  mode: number;
  etag?: string;
  target?: string;
  ino: number;
}

type VersionRow = Inode & { died_rev: number | null };

/** Two versions a user can tell apart: another inode, or what `differs` (diff.ts) sees. */
function visible(a: VersionRow, b: VersionRow): boolean {
  return a.ino !== b.ino || differs(a, b);
}

/** Directories a name sits in, at most: a path's past parents are found by name, and names can repeat. */
const PARENTS_MAX = 1_000;

/**
 * The inodes `path` has named in any kept version: looked up by name, segment by segment,
 * through live and retired entries alike, so a file whose directory was since removed or
 * renamed still has its history (the live parent, through symlinks, is one of them too).
 * Every version listed is checked against its `readAt` anyway.
 */
function inodesNamed(store: Store, path: string): FsResult<{ path: string; inos: number[] }> {
  const normalized = normalizePath(path);
  if (!normalized.ok) return fail(normalized.code, normalized.detail, path);
  if (normalized.path === "/") return { ok: true, path: "/", inos: [ROOT_INO] };
  const segments = normalized.path.slice(1).split("/");
  const name = segments.pop() as string;
  let parents = new Set<number>([ROOT_INO]);
  for (const segment of segments) parents = named(store, parents, segment);
  const live = store.resolveParent(normalized.path);
  if (live.ok) parents.add(live.parent);
  return { ok: true, path: live.ok ? live.path : normalized.path, inos: [...named(store, parents, name)] };
}

function named(store: Store, parents: Set<number>, name: string): Set<number> {
  const list = JSON.stringify([...parents]);
  return new Set(
    store.sql
      .exec<{ ino: number }>(
        `SELECT ino FROM dirents WHERE parent IN (SELECT value FROM json_each(?)) AND name = ?
         UNION SELECT ino FROM dirents_hist WHERE parent IN (SELECT value FROM json_each(?)) AND name = ? LIMIT ?`,
        list,
        name,
        list,
        name,
        PARENTS_MAX,
      )
      .toArray()
      .map((row) => row.ino),
  );
}

export function history(store: Store, path: string): FsResult<{ path: string; versions: FileVersion[] }> {
  const parent = inodesNamed(store, path);
  if (!parent.ok) return parent;
  const { inos } = parent;
  if (inos.length === 0) return fail("ENOENT", `no version of ${parent.path} is kept`, path);
  const marks = inos.map(() => "?").join(", ");
  const rows = store.sql
    .exec<VersionRow>(
      `SELECT ${INODE_COLUMNS}, NULL AS died_rev FROM inodes WHERE ino IN (${marks})
       UNION ALL SELECT ${INODE_COLUMNS}, died_rev FROM inodes_hist WHERE ino IN (${marks})
       ORDER BY born_rev ASC`,
      ...inos,
      ...inos,
    )
    .toArray();
  // Oldest first, folding invisible steps into the version before them, per inode.
  const kept: VersionRow[] = [];
  const lastOf = new Map<number, VersionRow>();
  for (const row of rows) {
    const last = lastOf.get(row.ino);
    // Only a version that follows straight on: one the path lost and got back (a delete, then
    // a restore) is two versions, or the history would say it never left.
    if (last && last.died_rev === row.born_rev && !visible(last, row)) {
      last.died_rev = row.died_rev;
      continue;
    }
    const copy = { ...row };
    kept.push(copy);
    lastOf.set(row.ino, copy);
  }
  const newest: (VersionRow & { readAt: string })[] = [];
  for (const row of kept.reverse()) {
    const readAt = readAtOf(store, parent.path, row);
    if (readAt !== null) newest.push({ ...row, readAt });
    if (newest.length >= workspaceLimits.historyVersionsMax) break;
  }
  const revs = newest.map((row) => row.born_rev);
  const changes = new Map(
    store.sql
      .exec<{ rev: number; at_ms: number; actor: string | null; op: string; restored_to: string | null }>(
        `SELECT rev, at_ms, actor, op, restored_to FROM changes WHERE rev IN (${revs.map(() => "?").join(", ") || "NULL"})`,
        ...revs,
      )
      .toArray()
      .map((row) => [row.rev, row]),
  );
  const versions = newest.map((row): FileVersion => {
    const change = changes.get(row.born_rev);
    const version: FileVersion = {
      revision: row.born_rev,
      until: row.died_rev,
      at: change ? new Date(change.at_ms).toISOString() : null,
      actor: change?.actor ?? null,
      op: change?.op ?? null,
      restoredTo: change?.restored_to ?? null,
      readAt: row.readAt,
      type: row.type,
      size: row.size,
      mode: row.mode,
      ino: row.ino,
    };
    if (row.etag) version.etag = row.etag;
    if (row.target !== null) version.target = row.target;
    return version;
  });
  return { ok: true, path: parent.path, versions };
}

/**
 * The `?at=` that reads `row` back at `path`: the first revision of its life that is
 * readable and at which `path` names it (a version may outlive its name there, or be
 * named there only later), as text, or a snapshot pinning such a revision. Null when none.
 */
function readAtOf(store: Store, path: string, row: VersionRow): string | null {
  const live = store.meta("revision");
  const last = row.died_rev === null ? live : row.died_rev - 1;
  const candidates = new Set<number>([row.born_rev]);
  if (historyWindowMs(store) > 0) {
    // The first revision of its life the window keeps: past the window's start and any run's passing states.
    let rev = Math.max(row.born_rev, historyFrom(store));
    for (let span = runSpanAt(store, rev); span && rev <= last; span = runSpanAt(store, rev)) rev = span.toRev;
    candidates.add(rev);
  }
  const pinned = store.sql
    .exec<{ id: string; rev: number }>(
      "SELECT id, rev FROM snapshots WHERE rev >= ? AND rev <= ? ORDER BY rev LIMIT 1",
      row.born_rev,
      last,
    )
    .toArray()[0];
  if (pinned) candidates.add(pinned.rev);
  candidates.add(last);
  for (const rev of [...candidates].sort((a, b) => a - b)) {
    if (rev < row.born_rev || rev > last) continue;
    const by = readableBy(store, rev);
    if (by === null) continue;
    const found = store.resolve(path, false, new RevisionTree(store.sql, rev));
    if (!found.ok || found.ino !== row.ino) continue;
    if (by === "revision") return String(rev);
    const snapshot = store.sql.exec<{ id: string }>("SELECT id FROM snapshots WHERE rev = ? LIMIT 1", rev).one();
    return snapshot.id;
  }
  return null;
}
