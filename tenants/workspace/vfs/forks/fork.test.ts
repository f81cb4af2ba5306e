import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../../limits.ts";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import { forkHeld, isImporting, objectName, stubOf, treeOf } from "../test/forks.ts";
import { bytes, ok } from "../test/withVfs.ts";

function absentCount(name: string): Promise<number> {
  return runInDurableObject(
    stubOf(name),
    (instance: WorkspaceDO) =>
      instance.vfs.store.sql.exec<{ n: number }>("SELECT count(*) AS n FROM blobs WHERE absent = 1").one().n,
  );
}

function pinCount(name: string): Promise<number> {
  return runInDurableObject(stubOf(name), (instance: WorkspaceDO) => instance.vfs.forkPins().length);
}

/** A source with content, modes, owners, exact times, a hard link, a symlink and a two-chunk file. */
async function fillSource(name: string): Promise<void> {
  await runInDurableObject(stubOf(name), async (instance: WorkspaceDO) => {
    const vfs = instance.vfs;
    ok(await vfs.write("/src/a.txt", bytes("alpha")));
    ok(await vfs.write("/src/same.txt", bytes("alpha")));
    ok(await vfs.write("/big.bin", new Uint8Array(workspaceLimits.chunkBytes + 10).fill(7)));
    ok(await vfs.chmod("/src/a.txt", 0o600));
    ok(await vfs.chown("/src/a.txt", { uid: 0, gid: 0 }));
    ok(await vfs.utimes("/src/a.txt", { ms: 1_000_000, nsec: 123_456 }));
    ok(await vfs.link("/src/a.txt", "/hard"));
    ok(await vfs.symlink("src/a.txt", "/link"));
    ok(await vfs.mkdir("/empty"));
  });
}

describe("fork", () => {
  it("reads back the source's version exactly, reading chunks through before copying them", async () => {
    const source = objectName();
    const fork = objectName();
    await fillSource(source);
    const snapshot = await runInDurableObject(stubOf(source), (instance: WorkspaceDO) => instance.vfs.snapshot());
    const atSnapshot = await treeOf(source);
    await runInDurableObject(stubOf(source), async (instance: WorkspaceDO) => {
      ok(await instance.vfs.write("/src/a.txt", bytes("changed after the snapshot")));
      ok(await instance.vfs.remove("/big.bin"));
    });
    const forked = await forkHeld(fork, source, snapshot.id);
    expect(forked).toMatchObject({ ok: true, rev: snapshot.revision, stats: { sizeBytes: 5 + 5 + 524_298 } });
    // Its rows are still on their way: the source answers the fork's reads at the snapshot.
    expect(await treeOf(fork)).toEqual(atSnapshot);
    expect(await isImporting(fork)).toBe(true);
    // Once the rows are here, nothing is copied yet: two chunks of big.bin and "alpha" are
    // absent, and still readable.
    await stubOf(fork).stats();
    expect(await isImporting(fork)).toBe(false);
    expect(await absentCount(fork)).toBe(3);
    expect(await treeOf(fork)).toEqual(atSnapshot);
    expect(await pinCount(source)).toBe(1);
    // The rest comes in the background; then the fork lets go of its source.
    expect(await stubOf(fork).adoptSource(source)).toBe(true);
    expect(await absentCount(fork)).toBe(0);
    expect(await pinCount(source)).toBe(0);
    expect(await treeOf(fork)).toEqual(atSnapshot);
  });

  it("bills each workspace for the unique bytes its tree and snapshots reach, copied yet or not", async () => {
    const source = objectName();
    const fork = objectName();
    await fillSource(source);
    const unique = 5 + workspaceLimits.chunkBytes + 10;
    expect(await stubOf(source).counters()).toMatchObject({ sizeBytes: 5 + 5 + unique - 5, uniqueBytes: unique });
    const forked = ok(await forkHeld(fork, source));
    // Counted by the source before any row arrived, and the same once they all have.
    expect(forked.stats.uniqueBytes).toBe(unique);
    await stubOf(fork).stats();
    expect(await stubOf(fork).counters()).toEqual(forked.stats);
    await runInDurableObject(stubOf(source), async (instance: WorkspaceDO) => {
      const snap = await instance.vfs.snapshot();
      ok(await instance.vfs.write("/big.bin", bytes("small now")));
      // The snapshot still reaches the old content, so it is still billed.
      expect(instance.vfs.uniqueBytes()).toBe(unique + 9);
      await instance.vfs.deleteSnapshot(snap.id);
      expect(instance.vfs.uniqueBytes()).toBe(5 + 9);
    });
  });

  it("survives its source's deletion: the source hands over what the fork lacks first", async () => {
    const source = objectName();
    const fork = objectName();
    await fillSource(source);
    const before = await treeOf(source);
    ok(await stubOf(fork).forkFrom(source, "live"));
    await stubOf(source).destroy();
    expect(await absentCount(fork)).toBe(0);
    expect(await treeOf(fork)).toEqual(before);
    const origin = await runInDurableObject(stubOf(fork), (instance: WorkspaceDO) => instance.vfs.forkOrigin());
    expect(origin).toBeNull();
  });

  it("of a fork works, through a chain of deletions", async () => {
    const [first, second, third] = [objectName(), objectName(), objectName()];
    await fillSource(first);
    const before = await treeOf(first);
    ok(await stubOf(second).forkFrom(first, "live"));
    ok(await stubOf(third).forkFrom(second, "live"));
    await stubOf(third).stats();
    expect(await absentCount(third)).toBe(3);
    await stubOf(first).destroy();
    await stubOf(second).destroy();
    expect(await treeOf(third)).toEqual(before);
    expect(await absentCount(third)).toBe(0);
  });

  it("takes writes at once, and its own changes never reach the source", async () => {
    const source = objectName();
    const fork = objectName();
    await fillSource(source);
    const before = await treeOf(source);
    ok(await stubOf(fork).forkFrom(source, "live"));
    ok(await stubOf(fork).writeFile("/src/a.txt", bytes("fork's own"), { mode: "append" }));
    ok(await stubOf(fork).truncate("/big.bin", 3));
    expect(await treeOf(source)).toEqual(before);
    const read = ok(await stubOf(fork).readFile("/hard"));
    expect(await new Response(read.body).text()).toBe("alphafork's own");
  });

  it("is refused across tenants, from a workspace that has changed, and at an unknown version", async () => {
    const source = objectName("tenant-a");
    await fillSource(source);
    expect(await stubOf(objectName("tenant-b")).forkFrom(source, "live")).toMatchObject({ ok: false, code: "ENOENT" });
    expect(await stubOf(source).lendChunks(objectName("tenant-b"), [])).toMatchObject({ ok: false, code: "ENOENT" });
    expect(await stubOf(source).readForFork(objectName("tenant-b"), { op: "list", path: "/" })).toMatchObject({
      ok: false,
      code: "ENOENT",
    });
    // A workspace of the right tenant without a pin gets nothing either.
    expect(await stubOf(source).lendChunks(objectName("tenant-a"), [])).toMatchObject({ ok: false, code: "ENOENT" });
    expect(await stubOf(source).readForFork(objectName("tenant-a"), { op: "list", path: "/" })).toMatchObject({
      ok: false,
      code: "ENOENT",
    });
    expect(await stubOf(source).exportFork(objectName("tenant-a"), null)).toMatchObject({ ok: false, code: "ENOENT" });
    expect(await stubOf(objectName("tenant-a")).forkFrom(source, "snap_nope")).toMatchObject({ code: "ENOENT" });
    const used = objectName("tenant-a");
    ok(await stubOf(used).writeFile("/x", bytes("x")));
    expect(await stubOf(used).forkFrom(source, "live")).toMatchObject({ ok: false, code: "EEXIST" });
    expect(await pinCount(source)).toBe(0);
  });

  it("copies a tree of thousands of entries in several pages and counts it exactly", async () => {
    const source = objectName();
    const fork = objectName();
    await runInDurableObject(stubOf(source), async (instance: WorkspaceDO) => {
      const ops = [];
      // Names of 250 bytes: the entries alone pass one page's 1.5 MB, so they come in two.
      for (let i = 0; i < 7_000; i++) {
        ops.push({ op: "write" as const, path: `/d${i % 70}/${"n".repeat(245)}-${i}`, content: bytes(`file ${i}`) });
      }
      for (let i = 0; i < ops.length; i += 1_000) ok(await instance.vfs.batch(ops.slice(i, i + 1_000)));
    });
    const expected = await stubOf(source).counters();
    const forked = ok(await stubOf(fork).forkFrom(source, "live"));
    expect(forked.stats).toMatchObject({ sizeBytes: expected.sizeBytes, fileCount: 7_000 });
    const listed = ok(await stubOf(fork).list("/", { recursive: true, limit: 10_000 }));
    expect(listed.entries).toHaveLength(7_070);
    const read = ok(await stubOf(fork).readFile(`/d7/${"n".repeat(245)}-6937`));
    expect(await new Response(read.body).text()).toBe("file 6937");
    // The same once the rows have all come, in several calls of the background import.
    await stubOf(fork).stats();
    expect(ok(await stubOf(fork).list("/", { recursive: true, limit: 10_000 })).entries).toEqual(listed.entries);
    expect(await stubOf(fork).counters()).toEqual(forked.stats);
  });
});
