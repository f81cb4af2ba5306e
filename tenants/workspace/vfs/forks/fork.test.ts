import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../../limits.ts";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import { objectName, stubOf, treeOf } from "../test/forks.ts";
import { bytes, ok } from "../test/withVfs.ts";
import type { ForkCursor } from "./export.ts";
import type { ExportAnswer } from "./fork.ts";
import type { LentChunk } from "./lend.ts";

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
    const forked = await stubOf(fork).forkFrom(source, snapshot.id);
    expect(forked).toMatchObject({ ok: true, rev: snapshot.revision, stats: { sizeBytes: 5 + 5 + 524_298 } });
    // Nothing copied yet: two chunks of big.bin and "alpha" are absent, and still readable.
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
    const forked = ok(await stubOf(fork).forkFrom(source, "live"));
    expect(forked.stats.uniqueBytes).toBe(unique);
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
    // A workspace of the right tenant without a pin gets nothing either.
    expect(await stubOf(source).lendChunks(objectName("tenant-a"), [])).toMatchObject({ ok: false, code: "ENOENT" });
    expect(await stubOf(objectName("tenant-a")).forkFrom(source, "snap_nope")).toMatchObject({ code: "ENOENT" });
    const used = objectName("tenant-a");
    ok(await stubOf(used).writeFile("/x", bytes("x")));
    expect(await stubOf(used).forkFrom(source, "live")).toMatchObject({ ok: false, code: "EEXIST" });
    expect(await pinCount(source)).toBe(0);
  });

  it("imports a tree that comes in several calls, and one cut short leaves the workspace new", async () => {
    const source = objectName();
    await fillSource(source);
    const whole = await treeOf(source);
    const empty = await treeOf(objectName());
    const pull = (fork: string, failOnCall: number | null) => {
      let calls = 0;
      // One byte per call: each call carries one page, so the three tables take three calls.
      return async (cursor: ForkCursor | null): Promise<ExportAnswer> => {
        if (++calls === failOnCall) return { ok: false, code: "ENOENT", message: "the source went away" };
        return stubOf(source).exportFork(fork, "live", cursor, 1) as Promise<ExportAnswer>;
      };
    };
    const fork = objectName();
    await runInDurableObject(stubOf(fork), async (instance: WorkspaceDO) => {
      ok(await instance.vfs.becomeFork(source, pull(fork, null)));
      instance.vfs.borrowFrom(async (hashes) => {
        const lent = await stubOf(source).lendChunks(fork, [...hashes]);
        if (!lent.ok) throw new Error(lent.message);
        return lent.chunks as LentChunk[];
      });
    });
    expect(await treeOf(fork)).toEqual(whole);
    const cut = objectName();
    await runInDurableObject(stubOf(cut), async (instance: WorkspaceDO) => {
      expect(await instance.vfs.becomeFork(source, pull(cut, 3))).toMatchObject({ ok: false, code: "ENOENT" });
      expect(instance.vfs.revision()).toBe(0);
      expect(instance.vfs.forkOrigin()).toBeNull();
    });
    expect(await treeOf(cut)).toEqual(empty);
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
  });
});
