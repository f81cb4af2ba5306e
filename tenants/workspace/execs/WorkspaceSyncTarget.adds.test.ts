/**
 * The workspace side of container sync, a push's new files and directories: ops that only
 * add are written together (syncAddRun.ts), and the tree, counters, revisions and versions
 * they leave are exactly those of the same ops applied one by one.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApplyResult, RemoteEntry, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { text, withTarget } from "./test/syncTarget.ts";
import { WorkspaceSyncTarget } from "./WorkspaceSyncTarget.ts";

describe("WorkspaceSyncTarget.apply: a push of new files and directories", () => {
  // The same ops without bases go the way each op always went, one at a time (syncApply.ts).
  const adds = (base: null | undefined): SyncOp[] =>
    [
      { op: "mkdir", path: "/pre/new", mode: 0o750, uid: 0, gid: 0, mtimeMs: 1_600_000_000_000, mtimeNsec: 7 },
      { op: "write", path: "/pre/new/a", bytes: bytes("a"), mode: 0o600, uid: 7, gid: 8, mtimeMs: 5, mtimeNsec: 9 },
      { op: "write", path: "/pre/new/b", bytes: bytes("same"), mode: 0o644, mtimeMs: 6 },
      { op: "mkdir", path: "/pre/new/empty", mode: 0o700, mtimeMs: 1_700_000_000_000, mtimeNsec: 3 },
      { op: "write", path: "/pre/top", bytes: bytes("same"), mode: 0o644, uid: 1000, gid: 1000, mtimeMs: 8 },
      { op: "write", path: "/pre/zero", bytes: new Uint8Array(), mode: 0o644, mtimeMs: 9 },
    ].map((op) => ({ ...op, ...(base === null ? { base: null } : {}) }) as SyncOp);
  const paths = ["/pre", "/pre/new", "/pre/new/a", "/pre/new/b", "/pre/new/empty", "/pre/top", "/pre/zero", "/pre/old"];

  /** What a user can see of each path, read again from the tables (the caches dropped). */
  const seen = (object: WorkspaceDO) => {
    object.vfs.store.forget();
    return paths.map((path) => {
      const stat = object.vfs.lstat(path);
      if (!stat.ok) return stat.code;
      const { type, mode, uid, gid, size, etag, nlink, mtimeNs } = stat.stat;
      // A directory that gained entries took the time of the change, the rest keep the box's
      // (and /pre/old the API's write's).
      const timed = (type === "file" && path !== "/pre/old") || path === "/pre/new/empty";
      return { path, type, mode, uid, gid, size, etag, nlink, ...(timed ? { mtimeNs } : {}) };
    });
  };
  const counters = (object: WorkspaceDO) =>
    object.vfs.store.sql
      .exec("SELECT key, value FROM meta WHERE key IN ('size_bytes', 'file_count', 'inode_count') ORDER BY key")
      .toArray();
  /** Each directory's entry count and link count, as the tables hold them, against its entries. */
  const dirCounts = (object: WorkspaceDO) =>
    object.vfs.store.sql
      .exec(
        `SELECT ino, entries, nlink, (SELECT count(*) FROM dirents d WHERE d.parent = i.ino) AS named,
         2 + (SELECT count(*) FROM dirents d JOIN inodes c ON c.ino = d.ino WHERE d.parent = i.ino AND c.type = 'dir') AS links
         FROM inodes i WHERE type = 'dir'`,
      )
      .toArray();

  it("makes them as it would one by one: the same entries, modes, owners, times, counts and content", async () => {
    const prepare = async (object: WorkspaceDO) => {
      ok(await object.vfs.write("/pre/old", bytes("same")));
    };
    const fast = await withTarget(async (sync, object) => {
      await prepare(object);
      const result = (await sync.apply(adds(null))) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(dirCounts(object).every((d) => d.entries === d.named && d.nlink === d.links)).toBe(true);
      expect(await text(object, "/pre/new/b")).toBe("same");
      expect(await text(object, "/pre/zero")).toBe("");
      return { seen: seen(object), counters: counters(object), entries: result.entries };
    });
    const slow = await withTarget(async (sync, object) => {
      await prepare(object);
      const result = (await sync.apply(adds(undefined))) as ApplyResult;
      expect(result.failures).toEqual([]);
      return { seen: seen(object), counters: counters(object), entries: result.entries };
    });
    expect(fast.seen).toEqual(slow.seen);
    expect(fast.counters).toEqual(slow.counters);
    // A directory's answer is read after the whole run, so it counts the subdirectories made after it.
    const strip = (e: RemoteEntry | null) =>
      e && { ...e, ino: 0, mtimeMs: 0, mtimeNsec: 0, ...(e.type === "dir" ? { nlink: 0 } : {}) };
    expect(fast.entries.map(strip)).toEqual(slow.entries.map(strip));
  });

  it("stores every byte of a run's files, however their chunks fall into the statements that store them", () =>
    withTarget(async (sync, object) => {
      // A file of several chunks (more bytes than one statement takes), small files between
      // them, and the same content twice in one run (one blob, used by both).
      const patterned = (size: number, seed: number) =>
        Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
      const files: [string, Uint8Array][] = [
        ["/big", patterned(3 * 1024 * 1024 + 1, 1)],
        ["/small-1", patterned(100, 2)],
        ["/half", patterned(700 * 1024, 3)],
        ["/small-2", patterned(100, 2)],
        ["/small-3", patterned(5, 4)],
        ["/chunk", patterned(512 * 1024, 5)],
      ];
      const result = (await sync.apply(
        files.map(([path, bytes]) => ({ op: "write", path, bytes, mode: 0o644, base: null }) as SyncOp),
      )) as ApplyResult;
      expect(result.failures).toEqual([]);
      object.vfs.store.forget();
      for (const [path, bytes] of files) {
        const read = await object.vfs.readBytes(path);
        expect(read.ok && Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true);
      }
      const refs = object.vfs.store.sql
        .exec<{ refs: number }>("SELECT refs FROM blobs WHERE size = 100")
        .toArray()
        .map((row) => row.refs);
      expect(refs).toEqual([2]);
    }));

  it("gives each op a revision of its own, at which the tree shows it and what came before", () =>
    withTarget(async (sync, object) => {
      await object.vfs.setHistoryWindow(3_600_000);
      ok(await object.vfs.write("/pre/old", bytes("same")));
      const before = object.vfs.revision();
      const result = (await sync.apply(adds(null))) as ApplyResult;
      expect(result.revs).toEqual([1, 2, 3, 4, 5, 6].map((i) => before + i));
      expect(result.revsFrom).toEqual([0, 1, 2, 3, 4, 5].map((i) => before + i));
      const { changes } = object.vfs.changesSince(before);
      expect(changes.map((c) => [c.rev, c.paths])).toEqual(adds(null).map((op, i) => [before + 1 + i, [op.path]]));
      const names = (rev: number, path: string) => {
        const listed = object.vfs.listAt(rev, path);
        return listed.ok ? listed.entries.map((e) => e.name).sort() : listed.code;
      };
      expect(names(before, "/pre")).toEqual(["old"]);
      expect(names(before + 1, "/pre")).toEqual(["new", "old"]);
      expect(names(before + 1, "/pre/new")).toEqual([]);
      expect(names(before + 2, "/pre/new")).toEqual(["a"]);
      expect(names(before + 6, "/pre")).toEqual(["new", "old", "top", "zero"]);
      expect(object.vfs.statAt(before, "/pre/new", false)).toMatchObject({ ok: false, code: "ENOENT" });
      const read = await object.vfs.readAt(before + 5, "/pre/top");
      expect(read.ok).toBe(true);
      expect(object.vfs.history("/pre/new/a")).toMatchObject({ ok: true, versions: [{ revision: before + 2 }] });
    }));

  it("keeps a run's own versions of a directory as it would one by one: none, under a window", async () => {
    // Two pushes of one run into the same new directory: the directory's version the first
    // push left is the run's own, so the window keeps no copy of it (Store.collapses).
    const versions = (base: null | undefined) => {
      const stub = env.WORKSPACE.getByName(`test-${crypto.randomUUID()}`);
      return runInDurableObject(stub, async (object: WorkspaceDO) => {
        await object.vfs.setHistoryWindow(3_600_000);
        const sync = new WorkspaceSyncTarget(object.vfs, () => "exec:ex_test");
        const op = (path: string): SyncOp =>
          ({ op: "write", path, bytes: bytes(path), mode: 0o644, ...(base === null ? { base: null } : {}) }) as SyncOp;
        const mkdir = { op: "mkdir", path: "/w", mode: 0o755, ...(base === null ? { base: null } : {}) } as SyncOp;
        expect(((await sync.apply([mkdir, op("/w/a"), op("/w/b")])) as ApplyResult).failures).toEqual([]);
        expect(((await sync.apply([op("/w/c"), op("/w/d")])) as ApplyResult).failures).toEqual([]);
        const dir = object.vfs.lstat("/w");
        if (!dir.ok) throw new Error(dir.message);
        const kept = object.vfs.store.sql
          .exec("SELECT count(*) AS n FROM inodes_hist WHERE ino = ?", dir.stat.ino)
          .one().n as number;
        return { kept, names: (object.vfs.list("/w") as { entries: { name: string }[] }).entries.map((e) => e.name) };
      });
    };
    const fast = await versions(null);
    expect(fast).toEqual(await versions(undefined));
    expect(fast.names).toEqual(["a", "b", "c", "d"]);
  });

  it("applies an op the run cannot take on its own, in order, and then the rest together", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/f", bytes("file")));
      const result = (await sync.apply([
        { op: "write", path: "/n1", bytes: bytes("1"), mode: 0o644, base: null },
        // The object has a file here: the op meets it and conflicts, alone.
        { op: "write", path: "/f", bytes: bytes("box"), mode: 0o644, base: null },
        { op: "write", path: "/n2", bytes: bytes("2"), mode: 0o644, base: null },
        // Its parent is missing on the object: made as a write always made it.
        { op: "write", path: "/gone/n3", bytes: bytes("3"), mode: 0o644, base: null },
        // A path the run already has goes alone after it.
        { op: "write", path: "/n2", bytes: bytes("2 again"), mode: 0o644, base: null },
      ])) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(result.conflicts).toEqual([{ index: 1, path: "/f", savedAs: expect.stringMatching(/^\/f\.conflict-/) }]);
      expect(result.revs.every((rev, i) => i === 0 || rev > (result.revs[i - 1] as number))).toBe(true);
      expect(await text(object, "/f")).toBe("file");
      expect(await text(object, "/gone/n3")).toBe("3");
      // The same path again, on the base its first op pushed: the box's own version, so it applies.
      expect(await text(object, "/n2")).toBe("2 again");
      expect(result.conflicts?.length).toBe(1);
    }));
});
