/**
 * The change log: every mutation's revision and the paths it touched. Readers (container
 * sync, watchers) register a cursor; compaction keeps everything after the oldest cursor,
 * and otherwise the last `changeLogEntriesKept` entries.
 */
import { workspaceLimits } from "../limits.ts";
import type { Store } from "./store.ts";
import { historyFrom } from "./versions/retention.ts";

export interface Change {
  rev: number;
  at: string;
  op: string;
  paths: string[];
  /** Who made it (`key:<id>`, `exec:<id>`, `container`), when known. */
  actor: string | null;
  /** A restore's: the version it went back to (a snapshot id, or a revision as text). */
  restoredTo?: string;
}

export function changesSince(
  store: Store,
  rev: number,
  limit = 1_000,
): { changes: Change[]; oldestRev: number; revision: number } {
  const changes = store.sql
    .exec<{ rev: number; at_ms: number; op: string; paths: string; actor: string | null; restored_to: string | null }>(
      "SELECT * FROM changes WHERE rev > ? ORDER BY rev LIMIT ?",
      rev,
      limit,
    )
    .toArray()
    .map((row) => ({
      rev: row.rev,
      at: new Date(row.at_ms).toISOString(),
      op: row.op,
      paths: JSON.parse(row.paths) as string[],
      actor: row.actor,
      ...(row.restored_to === null ? {} : { restoredTo: row.restored_to }),
    }));
  const oldest = store.sql.exec<{ rev: number | null }>("SELECT min(rev) AS rev FROM changes").one().rev;
  const revision = store.meta("revision");
  return { changes, oldestRev: oldest ?? revision + 1, revision };
}

export function setCursor(store: Store, name: string, rev: number): void {
  store.sql.exec(
    "INSERT INTO change_cursors (name, rev) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET rev = excluded.rev",
    name,
    rev,
  );
}

export function hasCursor(store: Store, name: string): boolean {
  return store.sql.exec("SELECT 1 FROM change_cursors WHERE name = ?", name).toArray().length > 0;
}

/** Deletes entries no reader needs; returns how many went. */
export function compactChanges(store: Store): number {
  const revision = store.meta("revision");
  const oldestCursor = store.sql.exec<{ rev: number | null }>("SELECT min(rev) AS rev FROM change_cursors").one().rev;
  // Entries inside the history window say when and by whom each kept version was made.
  const keepFrom = Math.min(
    oldestCursor ?? Number.POSITIVE_INFINITY,
    revision - workspaceLimits.changeLogEntriesKept,
    historyFrom(store),
  );
  return store.sql.exec("DELETE FROM changes WHERE rev <= ?", keepFrom).rowsWritten;
}
