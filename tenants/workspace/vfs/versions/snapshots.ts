/**
 * Snapshots: a name for a revision. Taking one writes one row (O(1) whatever the
 * workspace's size) and from then on the store keeps every row version alive at that
 * revision (store/history.ts `keepRule`), so it reads back exactly until the snapshot is deleted.
 */
import { newId } from "../../../ids.ts";
import type { Store } from "../store.ts";

export interface Snapshot {
  id: string;
  revision: number;
  name: string | null;
  description: string | null;
  createdAt: string;
  /** The workspace's logical size and file count at the revision. */
  sizeBytes: number;
  fileCount: number;
  /** Who took it (`key:<id>`, `exec:<id>`), when known. */
  actor: string | null;
  /** The run it was taken just before (`snapshot: "before"` on exec), or null. */
  execId: string | null;
}

type SnapshotRow = {
  id: string;
  rev: number;
  name: string | null;
  description: string | null;
  created_ms: number;
  size_bytes: number;
  file_count: number;
  actor: string | null;
  exec_id: string | null;
};

function snapshotOf(row: SnapshotRow): Snapshot {
  return {
    id: row.id,
    revision: row.rev,
    name: row.name,
    description: row.description,
    createdAt: new Date(row.created_ms).toISOString(),
    sizeBytes: row.size_bytes,
    fileCount: row.file_count,
    actor: row.actor,
    execId: row.exec_id,
  };
}

/** Pins the current revision. Runs under the mutation lock, so the revision is the tree's. */
export function createSnapshot(
  store: Store,
  fields: { name?: string; description?: string; execId?: string },
): Snapshot {
  const nowMs = store.nowMs();
  const row: SnapshotRow = {
    id: newId("snap", nowMs),
    rev: store.meta("revision"),
    name: fields.name ?? null,
    description: fields.description ?? null,
    created_ms: nowMs,
    size_bytes: store.meta("size_bytes"),
    file_count: store.meta("file_count"),
    actor: store.actor,
    exec_id: fields.execId ?? null,
  };
  store.sql.exec(
    `INSERT INTO snapshots (id, rev, name, description, created_ms, size_bytes, file_count, actor, exec_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.id,
    row.rev,
    row.name,
    row.description,
    row.created_ms,
    row.size_bytes,
    row.file_count,
    row.actor,
    row.exec_id,
  );
  store.retentionChanged();
  return snapshotOf(row);
}

export function snapshotCount(store: Store): number {
  return store.sql.exec<{ n: number }>("SELECT count(*) AS n FROM snapshots").one().n;
}

/** Newest first; `cursor` is the last id of the previous page (ids sort by creation time). */
export function listSnapshots(
  store: Store,
  options: { limit: number; cursor?: string | undefined },
): { snapshots: Snapshot[]; nextCursor: string | null } {
  const rows = store.sql
    .exec<SnapshotRow>(
      "SELECT * FROM snapshots WHERE ? IS NULL OR id < ? ORDER BY id DESC LIMIT ?",
      options.cursor ?? null,
      options.cursor ?? null,
      options.limit + 1,
    )
    .toArray();
  const page = rows.slice(0, options.limit);
  return {
    snapshots: page.map(snapshotOf),
    nextCursor: rows.length > options.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** The snapshots taken just before these runs (`snapshot: "before"`) that still exist, by run id. */
export function snapshotsBeforeRuns(store: Store, execIds: readonly string[]): Map<string, string> {
  if (execIds.length === 0) return new Map();
  return new Map(
    store.sql
      .exec<{ id: string; exec_id: string }>(
        "SELECT id, exec_id FROM snapshots WHERE exec_id IN (SELECT value FROM json_each(?))",
        JSON.stringify(execIds),
      )
      .toArray()
      .map((row) => [row.exec_id, row.id]),
  );
}

export function getSnapshot(store: Store, id: string): Snapshot | null {
  const row = store.sql.exec<SnapshotRow>("SELECT * FROM snapshots WHERE id = ?", id).toArray()[0];
  return row ? snapshotOf(row) : null;
}

/**
 * Unpins; the versions only it kept become garbage for the next maintenance pass. Their
 * chunks stop counting as held at once (schema.ts, version 5), so the workspace's unique
 * bytes, and its storage bill, drop now rather than when the versions are pruned.
 */
export function deleteSnapshot(store: Store, id: string): boolean {
  const row = store.sql.exec<{ rev: number }>("SELECT rev FROM snapshots WHERE id = ?", id).toArray()[0];
  if (!row) return false;
  store.atomically(() => {
    store.sql.exec("DELETE FROM snapshots WHERE id = ?", id);
    store.sql.exec(
      `UPDATE blobs SET held = held - released.n FROM (
         SELECT hash, count(*) AS n FROM file_chunks_hist h
         WHERE h.born_rev <= ? AND h.died_rev > ?
           AND NOT EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= h.born_rev AND s.rev < h.died_rev)
         GROUP BY hash
       ) AS released WHERE released.hash = blobs.hash`,
      row.rev,
      row.rev,
    );
  });
  store.retentionChanged();
  return true;
}
