/**
 * Packing the past. After an edit, a snapshot or the history window keeps the file's old
 * chunk whole, although it usually differs from the new one by a few bytes: a 1 KiB edit
 * to a 30 KiB file kept 30 KiB. Maintenance packs such a chunk: it is stored as its
 * difference from the chunk that replaced it (store/delta.ts), found at the same place
 * (inode and chunk index) in the live file, and holds a reference on that base so GC keeps
 * it. Only chunks history keeps are looked at, so writes and live reads cost what they did
 * (a kept chunk whose bytes another live file also holds is packed too: that file's reads
 * then rebuild it, since finding other uses would need an index by hash that every write
 * would pay for); reading the past rebuilds a packed chunk with one more row read and one copy.
 *
 * A base is always whole, so rebuilding is never a chain: a chunk that other chunks are
 * packed against is packed only if those (at most `packDependentsMax`) can be re-packed
 * against its own base, or else stored whole again. Each pass looks at a bounded number
 * of `file_chunks_hist` rows, in the order they died, from where the last pass stopped.
 * A base that no version uses any more hands its role to one of the chunks packed against
 * it, so when every pin is gone the live chunks are whole again and nothing else is kept.
 */
import { workspaceLimits } from "../limits.ts";
import { type Delta, delta } from "./store/delta.ts";
import type { Store } from "./store.ts";

const CURSOR_KEYS = ["pack_died", "pack_ino", "pack_born", "pack_idx"] as const;

export function packPast(
  store: Store,
  max: number = workspaceLimits.packRowsPerPass,
): { packed: number; remaining: boolean } {
  const sql = store.sql;
  const cursor = CURSOR_KEYS.map(
    (key) => sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? 0,
  );
  const rows = sql
    .exec<{ died_rev: number; ino: number; born_rev: number; idx: number; hash: string }>(
      `SELECT died_rev, ino, born_rev, idx, hash FROM file_chunks_hist
       WHERE (died_rev, ino, born_rev, idx) > (?, ?, ?, ?)
       ORDER BY died_rev, ino, born_rev, idx LIMIT ?`,
      ...cursor,
      max,
    )
    .toArray();
  let packed = 0;
  let spent = 0;
  let seen = 0;
  for (const row of rows) {
    seen++;
    const outcome = packChunk(store, row.ino, row.idx, row.hash);
    if (outcome.packed) packed++;
    spent += outcome.bytesRead;
    if (spent >= workspaceLimits.packBytesPerPass) break;
  }
  const bases = lonelyBases(store);
  for (const base of bases) rebase(store, base);
  const last = rows[seen - 1];
  if (last) {
    const values = [last.died_rev, last.ino, last.born_rev, last.idx];
    for (const [i, key] of CURSOR_KEYS.entries())
      sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, values[i] as number);
  }
  return { packed, remaining: rows.length === max || seen < rows.length || bases.length === LONELY_PER_PASS };
}

const LONELY_PER_PASS = 16;

/**
 * Bases no version uses any more, kept only because chunks are packed against them: after
 * a restore brought a packed chunk back and the versions that used its base were pruned.
 */
function lonelyBases(store: Store): string[] {
  return store.sql
    .exec<{ hash: string }>(
      `SELECT b.hash FROM blobs b WHERE b.hash IN (SELECT base FROM blobs WHERE base IS NOT NULL)
       AND b.refs = (SELECT count(*) FROM blobs p WHERE p.base = b.hash) LIMIT ?`,
      LONELY_PER_PASS,
    )
    .toArray()
    .map((row) => row.hash);
}

/** Makes one chunk packed against a lonely base whole, and the others packed against it, so GC can take the base. */
function rebase(store: Store, lonely: string): void {
  const dependents = store.sql
    .exec<{ hash: string }>("SELECT hash FROM blobs WHERE base = ? ORDER BY refs DESC", lonely)
    .toArray()
    .map((row) => row.hash);
  const [first, ...rest] = dependents;
  if (!first) return;
  const base = store.content.blob(first);
  const others = rest.map((hash) => ({ hash, bytes: store.content.blob(hash) }));
  storeWhole(store, first, base);
  for (const { hash, bytes } of others) {
    const again = delta(bytes, base);
    if (worthIt(again, bytes.byteLength)) storePacked(store, hash, first, again);
    else storeWhole(store, hash, bytes);
  }
}

type BlobRow = { size: number; absent: number; base: string | null };

/**
 * Packs one kept chunk against the chunk now at its place, if that saves at least half of
 * it; says whether it did, and how many chunk bytes it read to decide.
 */
function packChunk(store: Store, ino: number, idx: number, hash: string): { packed: boolean; bytesRead: number } {
  const no = { packed: false, bytesRead: 0 };
  const sql = store.sql;
  const blobRow = (of: string) =>
    sql.exec<BlobRow>("SELECT size, absent, base FROM blobs WHERE hash = ?", of).toArray()[0];
  const old = blobRow(hash);
  if (!old || old.absent || old.base !== null || old.size < workspaceLimits.packChunkBytesMin) return no;
  const next = sql
    .exec<{ hash: string }>("SELECT hash FROM file_chunks WHERE ino = ? AND idx = ?", ino, idx)
    .toArray()[0]?.hash;
  if (!next || next === hash) return no;
  const successor = blobRow(next);
  if (!successor || successor.absent) return no;
  // A restore brought a packed version back: the live one becomes whole, the past one packed.
  if (successor.base !== null) {
    if (successor.base !== hash) return no;
    storeWhole(store, next, store.content.blob(next));
  }
  const dependents = sql
    .exec<{ hash: string }>(
      "SELECT hash FROM blobs WHERE base = ? LIMIT ?",
      hash,
      workspaceLimits.packDependentsMax + 1,
    )
    .toArray();
  if (dependents.length > workspaceLimits.packDependentsMax) return no;
  const base = store.content.blob(next);
  const own = delta(store.content.blob(hash), base);
  const bytesRead = old.size + base.byteLength;
  if (!worthIt(own, old.size)) return { packed: false, bytesRead };
  for (const dependent of dependents) {
    const bytes = store.content.blob(dependent.hash);
    const again = delta(bytes, base);
    if (worthIt(again, bytes.byteLength)) storePacked(store, dependent.hash, next, again);
    else storeWhole(store, dependent.hash, bytes);
  }
  storePacked(store, hash, next, own);
  return { packed: true, bytesRead: bytesRead + dependents.length * base.byteLength };
}

function worthIt(difference: Delta, size: number): boolean {
  return difference.middle.byteLength <= size / 2;
}

/** Stores `hash` packed against `base`, moving the reference it holds to that base. */
function storePacked(store: Store, hash: string, base: string, difference: Delta): void {
  releaseBase(store, hash);
  store.sql.exec(
    "UPDATE blobs SET data = ?, base = ?, base_head = ?, base_tail = ? WHERE hash = ?",
    difference.middle,
    base,
    difference.head,
    difference.tail,
    hash,
  );
  store.sql.exec("UPDATE blobs SET refs = refs + 1 WHERE hash = ?", base);
}

function storeWhole(store: Store, hash: string, bytes: Uint8Array): void {
  releaseBase(store, hash);
  store.sql.exec(
    "UPDATE blobs SET data = ?, base = NULL, base_head = NULL, base_tail = NULL WHERE hash = ?",
    bytes,
    hash,
  );
}

function releaseBase(store: Store, hash: string): void {
  const base = store.sql
    .exec<{ base: string | null }>("SELECT base FROM blobs WHERE hash = ?", hash)
    .toArray()[0]?.base;
  if (base) store.sql.exec("UPDATE blobs SET refs = refs - 1 WHERE hash = ?", base);
}
