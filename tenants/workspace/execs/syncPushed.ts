/**
 * The object's memory of the container's pushes (`container_pushed`): per path, the last
 * state a push of the container's gave it and the base that push carried. It answers the one
 * thing a base cannot say: that an op was already applied once and computerd died before it
 * heard so (./syncApply.ts says how the rule uses it). Rows are kept for the newest paths
 * only, pruned after every batch.
 */

import { sameState } from "../../../container/wire/conflict.ts";
import type { SyncBase } from "../../../container/wire/index.ts";
import type { Store } from "../vfs/store.ts";

/**
 * Paths whose last pushed state is remembered. Only a batch whose answer was lost needs it
 * (computerd sends one batch at a time), so the newest few thousand are plenty.
 */
const PUSHED_KEPT = 10_000;

/** Creates the table of the container's last pushed state per path; idempotent, run before the first batch. */
export function preparePushed(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS container_pushed (path TEXT PRIMARY KEY, base TEXT NOT NULL, state TEXT NOT NULL, rev INTEGER NOT NULL)",
  );
  // Pruning finds the oldest rows by revision after every batch.
  sql.exec("CREATE INDEX IF NOT EXISTS container_pushed_rev ON container_pushed (rev)");
}

/** The state the container's last push made `path` hold, if that push carried `base` too. */
export function pushedOnBase(store: Store, path: string, base: SyncBase): SyncBase | undefined {
  const row = store.sql
    .exec<{ base: string; state: string }>("SELECT base, state FROM container_pushed WHERE path = ?", path)
    .toArray()[0];
  if (!row || !sameState(JSON.parse(row.base) as SyncBase, base)) return undefined;
  return JSON.parse(row.state) as SyncBase;
}

/** Remembers that a push carrying `base` made `path` hold `state`. */
export function rememberPushed(store: Store, path: string, base: SyncBase, state: SyncBase): void {
  store.sql.exec(
    "INSERT OR REPLACE INTO container_pushed (path, base, state, rev) VALUES (?, ?, ?, ?)",
    path,
    JSON.stringify(base),
    JSON.stringify(state),
    store.meta("revision"),
  );
}

/** rememberPushed for a whole run of adds, in one statement. */
export function rememberPushedMany(
  store: Store,
  rows: readonly { path: string; base: SyncBase; state: SyncBase; rev: number }[],
): void {
  const at = (i: number) => `json_extract(value, '$[${i}]')`;
  store.sql.exec(
    `INSERT OR REPLACE INTO container_pushed (path, base, state, rev) SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)} FROM json_each(?)`,
    JSON.stringify(rows.map((row) => [row.path, JSON.stringify(row.base), JSON.stringify(row.state), row.rev])),
  );
}

/** Forgets all but the newest PUSHED_KEPT paths; run after every batch. */
export function prunePushed(store: Store): void {
  store.sql.exec(
    `DELETE FROM container_pushed WHERE rev < (SELECT rev FROM container_pushed ORDER BY rev DESC LIMIT 1 OFFSET ?)`,
    PUSHED_KEPT,
  );
}
