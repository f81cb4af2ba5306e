/**
 * Hard links and metadata under the conflict rule, in a real workspace object: a `link` is
 * checked against its path's base like a write, a `setattr` on a file that changed since is
 * dropped like a mode change, and a pushed file's owner and exact time land with it.
 */
import { describe, expect, it } from "vitest";
import { conflictName, conflictStamp } from "../../../container/wire/conflict.ts";
import type { ApplyResult, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import { baseOf, text, withTarget } from "./test/syncTarget.ts";
import type { WorkspaceSyncTarget } from "./WorkspaceSyncTarget.ts";

const apply = async (sync: WorkspaceSyncTarget, ops: SyncOp[]) => (await sync.apply(ops)) as ApplyResult;

describe("WorkspaceSyncTarget.apply with bases: links and metadata", () => {
  it("links a path that still holds its base, once, and refuses a link to nothing", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a", bytes("shared")));
      ok(await object.vfs.write("/b", bytes("old b")));
      const op: SyncOp = { op: "link", path: "/b", existing: "/a", base: baseOf(object, "/b") };
      const first = await apply(sync, [op]);
      expect(first).toMatchObject({ failures: [], conflicts: [], unchanged: [] });
      expect(first.entries[0]).toMatchObject({ ino: ok(object.vfs.lstat("/a")).stat.ino, nlink: 2 });
      expect((await apply(sync, [op])).revs).toEqual([0]);
      const refused = await apply(sync, [{ op: "link", path: "/c", existing: "/none", base: null }]);
      expect(refused.failures.map((f) => f.code)).toEqual(["ENOENT"]);
    }));

  it("keeps the API's file where the container linked a stale path, and saves the link beside it", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a", bytes("shared")));
      ok(await object.vfs.write("/b", bytes("b both saw")));
      const base = baseOf(object, "/b");
      ok(await object.vfs.write("/b", bytes("b from the API")));
      const kept = baseOf(object, "/b");
      const result = await apply(sync, [{ op: "link", path: "/b", existing: "/a", base }]);
      const savedAs = conflictName("/b", conflictStamp(kept));
      expect(result.conflicts).toEqual([{ index: 0, path: "/b", savedAs }]);
      expect(await text(object, "/b")).toBe("b from the API");
      // The container's version is another name of the file it linked, as on the box.
      expect(ok(object.vfs.lstat(savedAs)).stat.ino).toBe(ok(object.vfs.lstat("/a")).stat.ino);
    }));

  it("drops a setattr made on a version the API has since replaced, and applies one on the base", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/f", bytes("v1")));
      const base = baseOf(object, "/f");
      const onBase = await apply(sync, [{ op: "setattr", path: "/f", uid: 0, mtimeMs: 5, mtimeNsec: 6, base }]);
      expect(onBase).toMatchObject({ failures: [], conflicts: [] });
      expect(ok(object.vfs.lstat("/f")).stat).toMatchObject({ uid: 0, mtimeNs: "5000006" });
      ok(await object.vfs.write("/f", bytes("v2 from the API")));
      const stale = await apply(sync, [{ op: "setattr", path: "/f", gid: 0, base }]);
      expect(stale.conflicts).toEqual([{ index: 0, path: "/f", savedAs: null }]);
      expect(ok(object.vfs.lstat("/f")).stat.gid).toBe(1000);
    }));

  it("gives a file the box replaced a name of its own, even when its content is the same", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a", bytes("same")));
      ok(await object.vfs.link("/a", "/b"));
      const base = baseOf(object, "/a");
      const result = await apply(sync, [
        { op: "write", path: "/a", bytes: bytes("same"), mode: 0o600, nlink: 1, uid: 0, base },
      ]);
      expect(result).toMatchObject({ failures: [], conflicts: [] });
      expect(result.entries[0]).toMatchObject({ nlink: 1, mode: 0o600, uid: 0 });
      expect(ok(object.vfs.lstat("/b")).stat).toMatchObject({ nlink: 1, mode: 0o644, uid: 1000 });
    }));
});
