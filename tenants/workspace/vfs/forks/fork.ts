/**
 * Forks, both sides, as the Vfs exposes them (docs/vfs.md, "Forks"):
 * - the source pins a revision for a fork and counts its tree there (`pinForFork`), exports
 *   its rows a call at a time (`exportFork`), answers the fork's reads at the pinned revision
 *   while the fork imports (reads.ts), lends chunks to a fork that has a pin (`lend`), and
 *   lets go when told (`release`);
 * - the fork records its source and imports the rows in the background (import.ts), reads
 *   an absent chunk through from its source when something reads it (`Store.fetchAbsent`,
 *   set by `borrowFrom`), copies the rest in the background (`copyAbsent`) and, with nothing
 *   absent left, lets go of its source (`doneBorrowing`).
 */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Store } from "../store.ts";
import { revisionOf } from "../versions/retention.ts";
import { countsAt } from "./counts.ts";
import { exportPages, type ForkCursor, type ForkPage } from "./export.ts";
import { type ForkCounts, type ForkOrigin, forkOrigin, isImporting } from "./import.ts";
import {
  absentAmong,
  absentHashes,
  type ChunkLender,
  dropUnreferencedAbsent,
  type LentChunk,
  lendChunks,
  receiveChunks,
  stillBorrowing,
} from "./lend.ts";
import { forkPin, pinFork } from "./pins.ts";

export type ExportAnswer = FsResult<{ rev: number; pages: ForkPage[]; next: ForkCursor | null }>;
export type PinAnswer = FsResult<{ rev: number; counts: ForkCounts }>;

/**
 * Pins the version `ref` names for `fork` (again: the pin it already holds) and counts the
 * tree there, for the fork's first answer.
 */
export function pinForFork(store: Store, fork: string, ref: string | number): PinAnswer {
  const at = revisionOf(store, ref);
  if (!at.ok) return at;
  const pinned = pinFork(store, fork, at.revision);
  if (!pinned.ok) return pinned;
  return { ok: true, rev: pinned.rev, counts: countsAt(store, pinned.rev) };
}

/** One call of a fork's import, from `cursor` (null: the start), at the revision the fork pinned. */
export function exportFork(store: Store, fork: string, cursor: ForkCursor | null, callBytesMax?: number): ExportAnswer {
  const pin = forkPin(store, fork);
  if (!pin) return fail("ENOENT", "this fork holds no pin here");
  return { ok: true, rev: pin.rev, ...exportPages(store, pin.rev, cursor, callBytesMax) };
}

/** The chunks a fork with a pin asks for, fetching any this workspace itself still borrows. */
export async function lend(
  store: Store,
  fork: string,
  hashes: readonly string[],
): Promise<FsResult<{ chunks: LentChunk[] }>> {
  if (!forkPin(store, fork)) return fail("ENOENT", "this fork holds no pin here");
  if (hashes.length > workspaceLimits.forkLendChunksMax) {
    return fail("EINVAL", `at most ${workspaceLimits.forkLendChunksMax} chunks per call`);
  }
  const absent = absentAmong(store, hashes);
  if (absent.length > 0 && store.fetchAbsent) await store.fetchAbsent(absent);
  return { ok: true, chunks: lendChunks(store, hashes) };
}

/** Makes absent chunks read through from the source with `lender` (null: this is no fork, or no longer). */
export function borrowFrom(store: Store, lender: ChunkLender | null): void {
  store.fetchAbsent = lender
    ? async (hashes) => {
        for (let i = 0; i < hashes.length; i += workspaceLimits.forkLendChunksMax) {
          const batch = hashes.slice(i, i + workspaceLimits.forkLendChunksMax);
          const missing = await receiveChunks(store, batch, await lender(batch));
          if (missing.length > 0)
            throw new Error(`the fork's source lacks ${missing.length} chunk(s), e.g. ${missing[0]}`);
        }
      }
    : null;
}

/** Copies up to `max` absent chunks from the source; `remaining` says whether any are left. */
export async function copyAbsent(store: Store, max: number): Promise<{ copied: number; remaining: boolean }> {
  if (!store.fetchAbsent) return { copied: 0, remaining: false };
  const hashes = absentHashes(store, max);
  if (hashes.length > 0) await store.fetchAbsent(hashes);
  return { copied: hashes.length, remaining: stillBorrowing(store) };
}

/**
 * With every referenced chunk here, the origin record goes (after the caller released the
 * pin at the source, so a crash between the two leaves a fork that releases again).
 */
export function doneBorrowing(store: Store): ForkOrigin | null {
  const origin = forkOrigin(store);
  // While rows are still arriving, their chunks are not even known to be absent yet.
  if (!origin || isImporting(store.sql) || stillBorrowing(store)) return null;
  return origin;
}

export function forgetOrigin(store: Store): void {
  dropUnreferencedAbsent(store);
  store.sql.exec("DELETE FROM fork_origin");
  store.fetchAbsent = null;
}
