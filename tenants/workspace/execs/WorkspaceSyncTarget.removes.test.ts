/**
 * The workspace side of container sync, a push's removals: `remove` ops the rule lets land
 * are written together (syncRemoveRun.ts, Store.removeNames), and the tree, counters,
 * revisions, change log and history they leave are those of the same names removed one by
 * one; an op the run cannot take goes alone, in its place.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApplyResult, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { baseOf, text, withTarget } from "./test/syncTarget.ts";
import { WorkspaceSyncTarget } from "./WorkspaceSyncTarget.ts";

/** The removals of an `rm -rf /t` as computerd sends them: deepest first. */
const removed = ["/t/sub/y", "/t/sub/x", "/t/sub", "/t/link", "/t/empty", "/t/b", "/t/a"];
const paths = ["/", "/t", "/keep", ...removed];

/** A tree with shared content (a and b, and x), a link, an empty directory and one file that stays. */
async function prepare(object: WorkspaceDO, actor: string): Promise<void> {
  await object.vfs.setHistoryWindow(3_600_000);
  // Each call takes the actor when it is made (actingAs is synchronous).
  const as = <T>(fn: () => T) => object.vfs.actingAs(actor, fn);
  ok(await as(() => object.vfs.write("/t/a", bytes("same"))));
  ok(await as(() => object.vfs.write("/t/b", bytes("same"))));
  ok(await as(() => object.vfs.write("/t/sub/x", bytes("same"))));
  ok(await as(() => object.vfs.write("/t/sub/y", bytes("y"))));
  ok(await as(() => object.vfs.symlink("a", "/t/link")));
  ok(await as(() => object.vfs.mkdir("/t/empty")));
  ok(await as(() => object.vfs.write("/keep", bytes("same"))));
}

/** Everything the removals can change, read again from the tables (the caches dropped). */
function tables(object: WorkspaceDO, revs: { from: number; to: number }) {
  object.vfs.store.forget();
  const sql = object.vfs.store.sql;
  const rows = (query: string) => sql.exec(query).toArray();
  const names = (rev: number, path: string) => {
    const listed = object.vfs.listAt(rev, path);
    return listed.ok ? listed.entries.map((e) => e.name).sort() : listed.code;
  };
  const seen = paths.map((path) => {
    const stat = object.vfs.lstat(path);
    if (!stat.ok) return [path, stat.code];
    const { type, size, etag, nlink } = stat.stat;
    return [path, type, size, etag, nlink];
  });
  const listings = [];
  for (let rev = revs.from; rev <= revs.to; rev++) listings.push([rev, names(rev, "/t"), names(rev, "/t/sub")]);
  return {
    seen,
    listings,
    counters: rows("SELECT key, value FROM meta WHERE key IN ('size_bytes', 'file_count', 'inode_count', 'revision')"),
    blobs: rows("SELECT hash, refs FROM blobs ORDER BY hash"),
    changes: rows(`SELECT rev, op, paths, actor FROM changes WHERE rev > ${revs.from} ORDER BY rev`),
    names: rows("SELECT parent, name, ino, born_rev, died_rev FROM dirents_hist ORDER BY parent, name, born_rev"),
    chunks: rows("SELECT ino, idx, hash, born_rev, died_rev FROM file_chunks_hist ORDER BY ino, idx, born_rev"),
    // A directory that loses entries and stays keeps one version per run of removals, not one
    // per entry (as a run of adds makes one), so only the removed files' and links' versions compare.
    inodes: rows(
      "SELECT ino, type, size, etag, born_rev, died_rev FROM inodes_hist WHERE type != 'dir' ORDER BY ino, born_rev",
    ),
    runSpans: rows("SELECT actor, from_rev, to_rev FROM run_spans ORDER BY actor"),
    dirs: rows(
      `SELECT ino, entries, nlink, (SELECT count(*) FROM dirents d WHERE d.parent = i.ino) AS named,
       2 + (SELECT count(*) FROM dirents d JOIN inodes c ON c.ino = d.ino WHERE d.parent = i.ino AND c.type = 'dir') AS links
       FROM inodes i WHERE type = 'dir' ORDER BY ino`,
    ),
  };
}

/** `rm -rf /t` pushed as one batch (`fast`), or each name removed alone through the store (`slow`). */
function removeAll(way: "fast" | "slow", actor: string) {
  const stub = env.WORKSPACE.getByName(`test-${crypto.randomUUID()}`);
  return runInDurableObject(stub, async (object: WorkspaceDO) => {
    await prepare(object, actor);
    const from = object.vfs.revision();
    if (way === "fast") {
      const sync = new WorkspaceSyncTarget(object.vfs, () => actor);
      const ops = removed.map((path) => ({ op: "remove", path, base: baseOf(object, path) }) as SyncOp);
      const result = (await sync.apply(ops)) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(result.conflicts).toEqual([]);
      expect(result.revs).toEqual(removed.map((_, i) => from + 1 + i));
      expect(result.revsFrom).toEqual(removed.map((_, i) => from + i));
      expect(result.entries).toEqual(removed.map(() => null));
    } else {
      for (const path of removed) ok(await object.vfs.actingAs(actor, () => object.vfs.remove(path)));
    }
    return tables(object, { from, to: object.vfs.revision() });
  });
}

describe("WorkspaceSyncTarget.apply: a push of removals", () => {
  it("removes as it would one by one: the same tree, counters, references, change log and history", async () => {
    const fast = await removeAll("fast", "container");
    const slow = await removeAll("slow", "container");
    expect(fast).toEqual(slow);
    // What the comparison rests on: everything under /t went, and history kept each removed
    // name and the versions of its content, which hold their chunks' references ("same" is
    // /keep's and the three removed copies', "y" its removed file's).
    expect(fast.seen.filter(([, code]) => code === "ENOENT").map(([path]) => path)).toEqual(removed);
    expect(fast.names.length).toBe(removed.length);
    expect(fast.blobs.map((b) => b.refs).sort()).toEqual([1, 4]);
    expect(fast.dirs.every((d) => d.entries === d.named && d.nlink === d.links)).toBe(true);
  });

  it("keeps none of a run's own passing versions, as one by one would", async () => {
    // The files were made by the same run that removes them: under the window, its own
    // versions collapse (history.ts collapses) and its span is noted.
    const fast = await removeAll("fast", "exec:ex_same");
    const slow = await removeAll("slow", "exec:ex_same");
    expect(fast).toEqual(slow);
    expect(fast.runSpans).toHaveLength(1);
    expect(fast.names).toEqual([]);
  });

  it("can still read what was removed at the revision before", () =>
    withTarget(async (sync, object) => {
      await prepare(object, "key:k");
      const before = object.vfs.revision();
      const ops = removed.map((path) => ({ op: "remove", path, base: baseOf(object, path) }) as SyncOp);
      expect(((await sync.apply(ops)) as ApplyResult).failures).toEqual([]);
      const read = await object.vfs.readAt(before, "/t/sub/y");
      expect(read.ok && new TextDecoder().decode(await new Response(read.body).arrayBuffer())).toBe("y");
      expect(object.vfs.history("/t/a")).toMatchObject({ ok: true });
    }));

  it("applies a removal the run cannot take alone, in its place, and the rest together", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/d/changed", bytes("api")));
      ok(await object.vfs.write("/d/gone", bytes("x")));
      ok(await object.vfs.write("/d/linked", bytes("l")));
      ok(await object.vfs.link("/d/linked", "/other-name"));
      ok(await object.vfs.write("/full/kept", bytes("k")));
      ok(await object.vfs.write("/after", bytes("a")));
      const stale = { type: "file" as const, etag: '"not-what-the-object-has"' };
      const result = (await sync.apply([
        { op: "remove", path: "/d/gone", base: baseOf(object, "/d/gone") },
        // Changed on the object since the box's base: the object keeps its version.
        { op: "remove", path: "/d/changed", base: stale },
        // A name of a file with two: removed alone, the other name keeps the file.
        { op: "remove", path: "/d/linked", base: baseOf(object, "/d/linked") },
        // A directory that still holds an entry the box did not remove: it stays.
        { op: "remove", path: "/full", base: { type: "dir" } },
        // Already gone on the object: nothing to do.
        { op: "remove", path: "/never", base: { type: "file", etag: '"x"' } },
        { op: "remove", path: "/after", base: baseOf(object, "/after") },
        // Made again after its removal in the same batch.
        { op: "write", path: "/after", bytes: bytes("again"), mode: 0o644, base: null },
      ])) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(result.conflicts).toEqual([
        { index: 1, path: "/d/changed", savedAs: null },
        { index: 3, path: "/full", savedAs: null },
      ]);
      expect(result.revs.filter((rev) => rev > 0).every((rev, i, all) => i === 0 || rev > (all[i - 1] as number))).toBe(
        true,
      );
      expect(await text(object, "/d/gone")).toBe("ENOENT");
      expect(await text(object, "/d/changed")).toBe("api");
      expect(await text(object, "/d/linked")).toBe("ENOENT");
      expect(await text(object, "/other-name")).toBe("l");
      expect(await text(object, "/full/kept")).toBe("k");
      expect(await text(object, "/after")).toBe("again");
      const counted = object.vfs.store.sql.exec("SELECT value FROM meta WHERE key = 'file_count'").one()
        .value as number;
      expect(counted).toBe(
        object.vfs.store.sql.exec("SELECT count(*) AS n FROM inodes WHERE type = 'file'").one().n as number,
      );
    }));
});
