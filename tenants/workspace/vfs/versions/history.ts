/**
 * A path's history: every kept version of the inodes that name has held, newest first,
 * each with the revision it was made in, when, by whom (the change log's actor) and what
 * it was. Versions that differ from the one before only in what a user does not see
 * (ctime, link count, a directory's entry count) are folded into it.
 */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import { INODE_COLUMNS } from "../schema.ts";
import type { Inode, InodeType, Store } from "../store.ts";
import { differs } from "./diff.ts";

export interface FileVersion {
  /** The revision the version was made in, and the one that ended it (null: it is live). */
  revision: number;
  until: number | null;
  /** When and by whom, while the change log still has the revision (null after compaction). */
  at: string | null;
  actor: string | null;
  op: string | null;
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

export function history(store: Store, path: string): FsResult<{ path: string; versions: FileVersion[] }> {
  const parent = store.resolveParent(path);
  if (!parent.ok) return parent;
  const inos = store.sql
    .exec<{ ino: number }>(
      "SELECT ino FROM dirents WHERE parent = ? AND name = ? UNION SELECT ino FROM dirents_hist WHERE parent = ? AND name = ?",
      parent.parent,
      parent.name,
      parent.parent,
      parent.name,
    )
    .toArray()
    .map((row) => row.ino);
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
    if (last && !visible(last, row)) {
      last.died_rev = row.died_rev;
      continue;
    }
    const copy = { ...row };
    kept.push(copy);
    lastOf.set(row.ino, copy);
  }
  const newest = kept.reverse().slice(0, workspaceLimits.historyVersionsMax);
  const revs = newest.map((row) => row.born_rev);
  const changes = new Map(
    store.sql
      .exec<{ rev: number; at_ms: number; actor: string | null; op: string }>(
        `SELECT rev, at_ms, actor, op FROM changes WHERE rev IN (${revs.map(() => "?").join(", ") || "NULL"})`,
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
