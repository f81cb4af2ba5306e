/**
 * The source's side of its forks: each fork still reading chunks through from here pins
 * the revision it was made from, exactly as a snapshot pins one (store/history.ts `keepRule`,
 * versions/retention.ts), so every chunk that revision reaches stays until the fork has
 * copied it and lets go. A pin is not a snapshot: it is not listed, not in the snapshot
 * quota, and not billed to this workspace (the fork pays for what its tree reaches).
 */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Store } from "../store.ts";

export interface ForkPin {
  fork: string;
  rev: number;
  createdMs: number;
}

/** Pins `rev` for the fork object named `fork`; refused past `forksSharingMax` unfinished forks. */
export function pinFork(store: Store, fork: string, rev: number): FsResult<{ rev: number }> {
  const held = store.sql.exec<{ n: number }>("SELECT count(*) AS n FROM fork_pins").one().n;
  if (held >= workspaceLimits.forksSharingMax) {
    return fail(
      "ENOSPC",
      `at most ${workspaceLimits.forksSharingMax} forks of one workspace may be copying from it at once; try again when some have finished`,
    );
  }
  store.sql.exec(
    "INSERT INTO fork_pins (fork, rev, created_ms) VALUES (?, ?, ?) ON CONFLICT (fork) DO NOTHING",
    fork,
    rev,
    store.nowMs(),
  );
  store.retentionChanged();
  const pinned = store.sql.exec<{ rev: number }>("SELECT rev FROM fork_pins WHERE fork = ?", fork).one().rev;
  return { ok: true, rev: pinned };
}

export function forkPin(store: Store, fork: string): ForkPin | null {
  const row = store.sql
    .exec<{ fork: string; rev: number; created_ms: number }>("SELECT * FROM fork_pins WHERE fork = ?", fork)
    .toArray()[0];
  return row ? { fork: row.fork, rev: row.rev, createdMs: row.created_ms } : null;
}

export function forkPins(store: Store): ForkPin[] {
  return store.sql
    .exec<{ fork: string; rev: number; created_ms: number }>("SELECT * FROM fork_pins ORDER BY fork")
    .toArray()
    .map((row) => ({ fork: row.fork, rev: row.rev, createdMs: row.created_ms }));
}

/** Lets go of a fork's pin; what only it kept becomes garbage for the next maintenance pass. */
export function releaseFork(store: Store, fork: string): boolean {
  const released = store.sql.exec("DELETE FROM fork_pins WHERE fork = ?", fork).rowsWritten > 0;
  if (released) store.retentionChanged();
  return released;
}
