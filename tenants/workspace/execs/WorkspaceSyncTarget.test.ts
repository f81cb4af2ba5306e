/**
 * The workspace side of container sync, inside a real workspace object: applying the
 * container's path states is idempotent, replaces whatever kind of entry was there, stages
 * large files without holding them, and the tree computerd walks and reads is the object's.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApplyResult, RemoteEntry, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { WorkspaceSyncTarget } from "./WorkspaceSyncTarget.ts";

function withTarget<T>(fn: (sync: WorkspaceSyncTarget, object: WorkspaceDO) => Promise<T>): Promise<T> {
  const stub = env.WORKSPACE.getByName(`test-${crypto.randomUUID()}`);
  return runInDurableObject(stub, (object: WorkspaceDO) => fn(new WorkspaceSyncTarget(object.vfs), object));
}

const text = async (object: WorkspaceDO, path: string) => {
  const read = await object.vfs.readBytes(path);
  return read.ok ? new TextDecoder().decode(read.bytes) : read.code;
};

describe("WorkspaceSyncTarget.apply", () => {
  const batch: SyncOp[] = [
    { op: "mkdir", path: "/src", mode: 0o755 },
    { op: "write", path: "/src/a.txt", bytes: bytes("alpha"), mode: 0o644 },
    { op: "write", path: "/src/run.sh", bytes: bytes("#!/bin/sh\n"), mode: 0o755 },
    { op: "symlink", path: "/src/link", target: "a.txt" },
    { op: "remove", path: "/never-existed" },
  ];

  it("gives the same tree when a batch is applied twice, and changes nothing the second time", () =>
    withTarget(async (sync, object) => {
      const first = (await sync.apply(batch)) as ApplyResult;
      expect(first).toMatchObject({ ok: true, failures: [] });
      expect(first.revs.filter((rev) => rev > 0)).toHaveLength(4);
      const revision = object.vfs.revision();
      const again = (await sync.apply(batch)) as ApplyResult;
      expect(again.revs).toEqual([0, 0, 0, 0, 0]);
      expect(object.vfs.revision()).toBe(revision);
      expect(await text(object, "/src/a.txt")).toBe("alpha");
      expect(object.vfs.lstat("/src/run.sh")).toMatchObject({ ok: true, stat: { mode: 0o755 } });
      expect(object.vfs.readlink("/src/link")).toMatchObject({ ok: true, target: "a.txt" });
      // Each op reports its path's state now, so computerd knows the ETag of what it pushed.
      expect(again.entries[1]).toMatchObject({ path: "/src/a.txt", type: "file", size: 5 });
      expect(again.entries[1]?.etag).toBe(first.entries[1]?.etag);
    }));

  it("replaces a directory, a link or a file with whatever kind the container has there", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/d/inner.txt", bytes("x")));
      ok(await object.vfs.write("/target.txt", bytes("target")));
      ok(await object.vfs.symlink("target.txt", "/l"));
      ok(await object.vfs.write("/f", bytes("file")));
      const result = (await sync.apply([
        { op: "write", path: "/d", bytes: bytes("now a file"), mode: 0o644 },
        // Writing over a link replaces the link; it does not write through it.
        { op: "write", path: "/l", bytes: bytes("now a file too"), mode: 0o644 },
        { op: "mkdir", path: "/f", mode: 0o700 },
      ])) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(await text(object, "/d")).toBe("now a file");
      expect(await text(object, "/l")).toBe("now a file too");
      expect(await text(object, "/target.txt")).toBe("target");
      expect(object.vfs.lstat("/f")).toMatchObject({ ok: true, stat: { type: "dir", mode: 0o700 } });
    }));

  it("commits a large file staged in chunks in one change", () =>
    withTarget(async (sync, object) => {
      const chunk = new Uint8Array(4 * 1024 * 1024).map((_, i) => i % 251);
      const upload = await sync.upload();
      for (let i = 0; i < 3; i++) await upload.append(chunk);
      const before = object.vfs.revision();
      const result = (await sync.apply([
        { op: "commitUpload", path: "/big.bin", uploadId: await upload.id(), mode: 0o600 },
      ])) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(object.vfs.revision()).toBe(before + 1);
      const read = await sync.read("/big.bin", 8 * 1024 * 1024 + 10, 5);
      expect(read).toMatchObject({ ok: true, size: 12 * 1024 * 1024, bytes: chunk.slice(10, 15) });
      expect(object.vfs.lstat("/big.bin")).toMatchObject({ ok: true, stat: { mode: 0o600 } });
    }));

  it("forgets the oldest uncommitted uploads once four are open", () =>
    withTarget(async (sync) => {
      const uploads = [];
      for (let i = 0; i < 5; i++) {
        const upload = await sync.upload();
        await upload.append(bytes(`part ${i}`));
        uploads.push(await upload.id());
      }
      const result = (await sync.apply(
        uploads.map((uploadId, i) => ({ op: "commitUpload" as const, path: `/u${i}`, uploadId, mode: 0o644 })),
      )) as ApplyResult;
      expect(result.failures.map((f) => f.index)).toEqual([0]);
    }));

  it("reports a refused op as a failure of that op and applies the rest", () =>
    withTarget(async (sync, object) => {
      const result = (await sync.apply([
        { op: "commitUpload", path: "/x", uploadId: "up_unknown", mode: 0o644 },
        { op: "write", path: "/y", bytes: bytes("y"), mode: 0o644 },
      ])) as ApplyResult;
      expect(result.failures).toEqual([{ index: 0, code: "EINVAL", message: expect.stringContaining("up_unknown") }]);
      expect(await text(object, "/y")).toBe("y");
    }));

  it("takes a larger file sent whole as the same content the first time and no change the second", () =>
    withTarget(async (sync, object) => {
      const content = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => i % 253);
      const op: SyncOp = { op: "write", path: "/mid.bin", bytes: content, mode: 0o644 };
      expect(((await sync.apply([op])) as ApplyResult).revs[0]).toBeGreaterThan(0);
      expect(((await sync.apply([op])) as ApplyResult).revs).toEqual([0]);
      expect(await object.vfs.readBytes("/mid.bin")).toEqual({ ok: true, bytes: content });
    }));
});

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

describe("WorkspaceSyncTarget: owners, exact times and hard links", () => {
  it("lands a pushed file, directory and link with the box's owner and time, to the nanosecond", () =>
    withTarget(async (sync, object) => {
      const result = (await sync.apply([
        { op: "mkdir", path: "/d", mode: 0o750, uid: 0, gid: 0, mtimeMs: -2, mtimeNsec: 5 },
        {
          op: "write",
          path: "/d/f",
          bytes: bytes("f"),
          mode: 0o640,
          uid: 65534,
          gid: 100,
          mtimeMs: 1_700_000_000_123,
          mtimeNsec: 456_789,
        },
        { op: "symlink", path: "/d/l", target: "f", uid: 7, gid: 8, mtimeMs: 9 },
      ])) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(result.entries[1]).toMatchObject({
        uid: 65534,
        gid: 100,
        mtimeMs: 1_700_000_000_123,
        mtimeNsec: 456_789,
        nlink: 1,
      });
      expect(object.vfs.stat("/d/f")).toMatchObject({
        ok: true,
        stat: { mode: 0o640, mtimeNs: "1700000000123456789" },
      });
      expect(object.vfs.lstat("/d/l")).toMatchObject({ ok: true, stat: { uid: 7, gid: 8, mtimeNs: "9000000" } });
      expect(object.vfs.stat("/d")).toMatchObject({ ok: true, stat: { uid: 0, gid: 0, mode: 0o750 } });
      // The same state again changes nothing; only what differs makes a change.
      const again = (await sync.apply([
        {
          op: "write",
          path: "/d/f",
          bytes: bytes("f"),
          mode: 0o640,
          uid: 65534,
          gid: 100,
          mtimeMs: 1_700_000_000_123,
          mtimeNsec: 456_789,
        },
        { op: "symlink", path: "/d/l", target: "f", uid: 7, gid: 8, mtimeMs: 9 },
      ])) as ApplyResult;
      expect(again.revs).toEqual([0, 0]);
    }));

  it("setattr sets only the fields given, on the entry itself, for every name of its inode", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/f", bytes("f")));
      ok(await object.vfs.link("/f", "/g"));
      ok(await object.vfs.symlink("f", "/l"));
      ok(await object.vfs.utimes("/f", { ms: 10, nsec: 20 }));
      const result = (await sync.apply([
        { op: "setattr", path: "/g", uid: 0 },
        { op: "setattr", path: "/l", gid: 5, mode: 0o600 },
        { op: "setattr", path: "/missing", mode: 0o600 },
      ])) as ApplyResult;
      expect(result.failures).toEqual([]);
      expect(object.vfs.stat("/f")).toMatchObject({
        ok: true,
        stat: { uid: 0, gid: 1000, mode: 0o644, mtimeNs: "10000020" },
      });
      expect(object.vfs.lstat("/l")).toMatchObject({ ok: true, stat: { gid: 5, mode: 0o777 } });
      expect(object.vfs.changesSince((result.revs[0] as number) - 1).changes[0]?.paths).toEqual(["/f", "/g"]);
    }));

  it("links a new name to a pushed file instead of taking a second copy, idempotently", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a", bytes("shared")));
      ok(await object.vfs.write("/b", bytes("in the way")));
      const first = (await sync.apply([{ op: "link", path: "/b", existing: "/a" }])) as ApplyResult;
      expect(first.failures).toEqual([]);
      expect(first.entries[0]).toMatchObject({ nlink: 2, ino: ok(object.vfs.stat("/a")).stat.ino });
      expect(await text(object, "/b")).toBe("shared");
      expect(((await sync.apply([{ op: "link", path: "/b", existing: "/a" }])) as ApplyResult).revs).toEqual([0]);
      const refused = (await sync.apply([
        { op: "link", path: "/c", existing: "/none" },
        { op: "link", path: "/c", existing: "/" },
      ])) as ApplyResult;
      expect(refused.failures.map((f) => f.code)).toEqual(["ENOENT", "EPERM"]);
      expect(object.vfs.counters()).toEqual({ sizeBytes: 6, fileCount: 1 });
    }));

  it("writes through a hard link, unless the box replaced the file (nlink 1): then the other name keeps its bytes", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a", bytes("old")));
      ok(await object.vfs.link("/a", "/b"));
      await sync.apply([{ op: "write", path: "/a", bytes: bytes("through"), mode: 0o644, nlink: 2 }]);
      expect(await text(object, "/b")).toBe("through");
      await sync.apply([{ op: "write", path: "/a", bytes: bytes("replaced"), mode: 0o644, nlink: 1 }]);
      expect(await text(object, "/a")).toBe("replaced");
      expect(await text(object, "/b")).toBe("through");
      expect(object.vfs.stat("/b")).toMatchObject({ ok: true, stat: { nlink: 1 } });
    }));

  it("reports owner, exact time, inode and link count in walk and lstatMany", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a", bytes("a")));
      ok(await object.vfs.link("/a", "/b"));
      ok(await object.vfs.utimes("/a", { ms: -1, nsec: 999_999 }));
      const walked = await sync.walk("/", null);
      if (!walked.ok) throw new Error(walked.message);
      const [a, b] = walked.entries;
      expect(a).toMatchObject({ uid: 1000, gid: 1000, nlink: 2, mtimeMs: -1, mtimeNsec: 999_999 });
      expect(b?.ino).toBe(a?.ino);
      expect(await sync.lstatMany(["/b"])).toEqual([
        expect.objectContaining({ ino: a?.ino, nlink: 2, mtimeNsec: 999_999 }),
      ]);
    }));
});

describe("WorkspaceSyncTarget reads", () => {
  it("walks the tree parents first, pages it, and lists changes after a revision", () =>
    withTarget(async (sync, object) => {
      const start = object.vfs.revision();
      ok(await object.vfs.write("/a/b/c.txt", bytes("c")));
      ok(await object.vfs.symlink("b/c.txt", "/a/link"));
      const walked = await sync.walk("/", null);
      if (!walked.ok) throw new Error(walked.message);
      expect(walked.entries.map((e) => [e.path, e.type])).toEqual([
        ["/a", "dir"],
        ["/a/b", "dir"],
        ["/a/b/c.txt", "file"],
        ["/a/link", "symlink"],
      ]);
      expect(walked.entries[3]?.target).toBe("b/c.txt");
      expect(walked.next).toBeNull();
      const changes = await sync.changes(start, 100);
      expect(changes.changes.map((c) => c.paths)).toEqual([["/a/b/c.txt"], ["/a/link"]]);
      expect(changes.revision).toBe(object.vfs.revision());
      expect(await sync.lstatMany(["/a/link", "/missing"])).toEqual([
        expect.objectContaining({ type: "symlink", target: "b/c.txt" }),
        null,
      ]);
      expect(await sync.read("/missing", 0, 10)).toMatchObject({ ok: false, code: "ENOENT" });
    }));

  it("keeps the change log from computerd's acknowledged revision", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/first", bytes("1")));
      const acknowledged = object.vfs.revision();
      await sync.ack(acknowledged);
      for (let i = 0; i < 5; i++) ok(await object.vfs.write(`/f${i}`, bytes("x")));
      await object.vfs.maintain();
      const page = await sync.changes(acknowledged, 100);
      expect(page.oldestRev).toBeLessThanOrEqual(acknowledged + 1);
      expect(page.changes).toHaveLength(5);
    }));
});
