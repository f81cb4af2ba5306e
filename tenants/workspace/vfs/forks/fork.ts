/**
 * Forks, both sides, as the Vfs exposes them (docs/vfs.md, "Forks"):
 * - the source pins a revision for a fork and exports its rows (`exportFork`), lends
 *   chunks to a fork that has a pin (`lend`), and lets go when told (`release`);
 * - the fork imports the rows (`becomeFork`), reads an absent chunk through from its
 *   source when something reads it (`Store.fetchAbsent`, set by `borrowFrom`), copies the
 *   rest in the background (`copyAbsent`) and, with nothing absent left, lets go of its
 *   source (`doneBorrowing`).
 */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Store } from "../store.ts";
import { revisionOf } from "../versions/retention.ts";
import { exportPages, type ForkCursor, type ForkPage } from "./export.ts";
import { abandonImport, type ForkOrigin, finishFork, forkOrigin, importPage, isPristine, startFork } from "./import.ts";
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

/**
 * One call of a fork's import: with no cursor, pins the version `ref` names for `fork` and
 * starts at the beginning; with one, continues at the pinned revision.
 */
export function exportFork(
  store: Store,
  fork: string,
  ref: string | number,
  cursor: ForkCursor | null,
  callBytesMax?: number,
): ExportAnswer {
  let rev: number;
  if (cursor === null) {
    const at = revisionOf(store, ref);
    if (!at.ok) return at;
    const pinned = pinFork(store, fork, at.revision);
    if (!pinned.ok) return pinned;
    rev = pinned.rev;
  } else {
    const pin = forkPin(store, fork);
    if (!pin) return fail("ENOENT", "this fork holds no pin here");
    rev = pin.rev;
  }
  return { ok: true, rev, ...exportPages(store, rev, cursor, callBytesMax) };
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

/**
 * Imports the tree `pull` hands over and makes it this workspace: one transaction when the
 * tree comes in one call, else one per call under the import mark (import.ts). The first
 * pull pins the version at the source, so a failure after it must release it there (the
 * caller does: it knows how to reach the source).
 */
export async function becomeFork(
  store: Store,
  source: string,
  pull: (cursor: ForkCursor | null) => Promise<ExportAnswer>,
): Promise<FsResult<{ revision: number; rev: number }>> {
  if (!isPristine(store)) return fail("EEXIST", "only a new, empty workspace can become a fork");
  let answer = await pull(null);
  for (let first = true; ; first = false) {
    if (!answer.ok) {
      if (!first) abandonImport(store.sql, store.nowMs());
      store.forget();
      return answer;
    }
    const { rev, pages, next } = answer;
    // The rows come in behind the caches' back.
    store.forget();
    const revision = store.atomically(() => {
      if (first) startFork(store);
      for (const page of pages) importPage(store, page);
      return next === null ? finishFork(store, { source, rev }) : null;
    });
    if (typeof revision === "number") return { ok: true, revision, rev };
    if (revision !== null) return revision;
    answer = await pull(next);
  }
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
  if (!origin || stillBorrowing(store)) return null;
  return origin;
}

export function forgetOrigin(store: Store): void {
  dropUnreferencedAbsent(store);
  store.sql.exec("DELETE FROM fork_origin");
  store.fetchAbsent = null;
}
