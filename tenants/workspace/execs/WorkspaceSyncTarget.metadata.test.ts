/**
 * The workspace side of container sync, POSIX metadata: a pushed entry lands with the box's
 * owner and exact time, setattr sets only what it names, a new name of a pushed file is a hard
 * link, and walk and lstatMany report owner, time, inode and link count.
 */
import { describe, expect, it } from "vitest";
import type { ApplyResult, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import { text, withTarget } from "./test/syncTarget.ts";

describe("WorkspaceSyncTarget: owners, exact times and hard links", () => {
  it("lands a pushed file, directory and link with the box's owner and time, to the nanosecond", () =>
    withTarget(async (sync, object) => {
      const file: SyncOp = {
        op: "write",
        path: "/d/f",
        bytes: bytes("f"),
        mode: 0o640,
        uid: 65534,
        gid: 100,
        mtimeMs: 1_700_000_000_123,
        mtimeNsec: 456_789,
      };
      const link: SyncOp = { op: "symlink", path: "/d/l", target: "f", uid: 7, gid: 8, mtimeMs: 9 };
      const result = (await sync.apply([
        { op: "mkdir", path: "/d", mode: 0o750, uid: 0, gid: 0, mtimeMs: -2, mtimeNsec: 5 },
        file,
        link,
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
      const again = (await sync.apply([file, link])) as ApplyResult;
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
