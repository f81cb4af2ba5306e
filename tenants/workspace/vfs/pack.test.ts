/**
 * Packing the past (pack.ts): what a snapshot costs after small edits, measured in the
 * bytes the database holds for chunks, and every version still reading back exactly
 * through restores, a restore's undo and the snapshot's deletion.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../limits.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { delta, undelta } from "./store/delta.ts";
import { ok, randomBytes } from "./test/values.ts";
import type { Vfs } from "./Vfs.ts";

const KiB = 1024;

async function maintainAll(vfs: Vfs): Promise<void> {
  for (let pass = 0; pass < 1_000; pass++) if (!(await vfs.maintain()).remaining) return;
  throw new Error("maintenance does not converge");
}

/** Bytes the chunks take, as the workspace's stats count them: packed ones by what they keep. */
function chunkRowBytes(vfs: Vfs): number {
  return vfs.stats().chunkBytes;
}

async function readAll(vfs: Vfs, ref: string, path: string): Promise<Uint8Array> {
  const read = ok(vfs.readAt(ref, path));
  return new Uint8Array(await new Response(read.body).arrayBuffer());
}

function edited(bytes: Uint8Array, at: number, replace: number, insert: Uint8Array): Uint8Array {
  return new Uint8Array([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at + replace)]);
}

describe("the difference kept for an old chunk", () => {
  it("rebuilds a replaced range, an insertion, a deletion, an append and a new start exactly", () => {
    const base = randomBytes(20 * KiB);
    const cases = {
      replaced: edited(base, 7_000, 1_000, randomBytes(1_000)),
      inserted: edited(base, 3, 0, randomBytes(10)),
      deleted: edited(base, 9_999, 500, new Uint8Array()),
      appended: edited(base, base.byteLength, 0, randomBytes(100)),
      newStart: edited(base, 0, 1_024, randomBytes(1_024)),
      equal: base.slice(),
      unrelated: randomBytes(5 * KiB),
      empty: new Uint8Array(),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const difference = delta(bytes, base);
      expect(undelta(base, difference), name).toEqual(bytes);
    }
    expect(delta(cases.replaced, base).middle.byteLength).toBeLessThanOrEqual(1_000);
    expect(delta(cases.equal, base).middle.byteLength).toBe(0);
  });
});

describe("packing the past", () => {
  it("keeps about the bytes an edit changed for a snapshot, and every version reads back", async () => {
    await runInDurableObject(env.WORKSPACE.getByName(`pack-${crypto.randomUUID()}`), async (instance: WorkspaceDO) => {
      const vfs = instance.vfs;
      const files = 20;
      const originals = Array.from({ length: files }, () => randomBytes(30 * KiB));
      for (const [i, bytes] of originals.entries()) ok(await vfs.write(`/src/f${i}`, bytes));
      const snap = await vfs.snapshot({ name: "before" });
      const before = chunkRowBytes(vfs);
      const edits = originals.map((bytes, i) =>
        i % 2 === 0 ? edited(bytes, 1_000 * i, 1 * KiB, randomBytes(KiB)) : edited(bytes, 500, 0, randomBytes(KiB)),
      );
      for (const [i, bytes] of edits.entries()) ok(await vfs.write(`/src/f${i}`, bytes));
      // Unpacked, the snapshot keeps every old 30 KiB chunk whole, and storage bills them so.
      expect(chunkRowBytes(vfs) - before).toBeGreaterThan(files * 29 * KiB);
      const liveBytes = edits.reduce((sum, bytes) => sum + bytes.byteLength, 0);
      expect(vfs.uniqueBytes() - liveBytes).toBeGreaterThan(files * 29 * KiB);
      await maintainAll(vfs);
      // Packed, it keeps about what each edit changed (1 KiB), not the 30 KiB around it, and
      // storage bills what it keeps: the live files whole, the snapshot's past as packed.
      expect(chunkRowBytes(vfs) - before).toBeLessThan(files * 2 * KiB);
      expect(vfs.uniqueBytes() - liveBytes).toBeLessThan(files * 2 * KiB);
      for (const [i, bytes] of originals.entries()) expect(await readAll(vfs, snap.id, `/src/f${i}`)).toEqual(bytes);
      for (const [i, bytes] of edits.entries()) expect(await readAll(vfs, "live", `/src/f${i}`)).toEqual(bytes);

      // A restore brings the packed versions back live; maintenance then keeps the other side packed.
      const after = await vfs.snapshot({ name: "after" });
      ok(await vfs.restore(snap.id));
      for (const [i, bytes] of originals.entries()) expect(await readAll(vfs, "live", `/src/f${i}`)).toEqual(bytes);
      await maintainAll(vfs);
      expect(chunkRowBytes(vfs) - before).toBeLessThan(files * 2 * KiB);
      for (const [i, bytes] of edits.entries()) expect(await readAll(vfs, after.id, `/src/f${i}`)).toEqual(bytes);
      for (const [i, bytes] of originals.entries()) expect(await readAll(vfs, "live", `/src/f${i}`)).toEqual(bytes);

      // With every pin gone, only the live chunks remain, each whole.
      await vfs.deleteSnapshot(snap.id);
      await vfs.deleteSnapshot(after.id);
      await maintainAll(vfs);
      const left = vfs.store.sql
        .exec<{ n: number; packed: number }>("SELECT count(*) AS n, count(base) AS packed FROM blobs")
        .one();
      expect(left).toEqual({ n: files, packed: 0 });
      expect(chunkRowBytes(vfs)).toBe(files * 30 * KiB);
      expect(vfs.uniqueBytes()).toBe(files * 30 * KiB);
    });
  });

  it("repacks the versions packed against a chunk when that chunk's own turn comes, and stays one step deep", async () => {
    await runInDurableObject(env.WORKSPACE.getByName(`pack-${crypto.randomUUID()}`), async (instance: WorkspaceDO) => {
      const vfs = instance.vfs;
      await vfs.setHistoryWindow(3_600_000);
      const versions = [randomBytes(40 * KiB)];
      ok(await vfs.write("/notes.md", versions[0] as Uint8Array));
      const revisions = [vfs.revision()];
      for (let i = 1; i <= workspaceLimits.packDependentsMax + 4; i++) {
        const next = edited(versions.at(-1) as Uint8Array, 100 * i, 50, randomBytes(60));
        versions.push(next);
        ok(await vfs.write("/notes.md", next));
        revisions.push(vfs.revision());
        // Maintenance between edits: each version is packed against the next, then repacked.
        if (i % 3 === 0) await maintainAll(vfs);
      }
      await maintainAll(vfs);
      const deepest = vfs.store.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM blobs p JOIN blobs b ON b.hash = p.base WHERE b.base IS NOT NULL",
        )
        .one().n;
      expect(deepest).toBe(0);
      const packed = vfs.store.sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM blobs WHERE base IS NOT NULL")
        .one().n;
      expect(packed).toBeGreaterThan(0);
      for (const [i, bytes] of versions.entries())
        expect(await readAll(vfs, String(revisions[i]), "/notes.md"), `version ${i}`).toEqual(bytes);
    });
  });
});
