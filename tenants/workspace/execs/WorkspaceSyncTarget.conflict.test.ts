/**
 * The conflict rule on the object's side, in a real workspace object: an op whose base the
 * path no longer holds keeps the object's version and saves the container's beside it,
 * an op whose base still holds lands, and a batch sent twice makes no second copy.
 */
import { describe, expect, it } from "vitest";
import { conflictName, conflictStamp } from "../../../container/wire/conflict.ts";
import type { ApplyResult, SyncBase, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { baseOf, text, withTarget } from "./test/syncTarget.ts";
import type { WorkspaceSyncTarget } from "./WorkspaceSyncTarget.ts";

const baseOfEtag = (object: WorkspaceDO, path: string) => (baseOf(object, path) as { etag: string }).etag;

const apply = async (sync: WorkspaceSyncTarget, ops: SyncOp[]) => (await sync.apply(ops)) as ApplyResult;
const write = (path: string, content: string, base: SyncBase): SyncOp => ({
  op: "write",
  path,
  bytes: bytes(content),
  mode: 0o644,
  base,
});

describe("WorkspaceSyncTarget.apply with bases", () => {
  it("keeps the API's newer version and saves the container's beside it when the base is stale", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/docs/report.txt", bytes("v1 both saw\n")));
      const base = baseOf(object, "/docs/report.txt");
      ok(await object.vfs.write("/docs/report.txt", bytes("v2 from the API\n")));
      const kept = baseOf(object, "/docs/report.txt");

      const result = await apply(sync, [write("/docs/report.txt", "v2 from the box\n", base)]);
      const savedAs = conflictName("/docs/report.txt", conflictStamp(kept));
      expect(savedAs).toMatch(/^\/docs\/report\.conflict-[0-9a-f]{8}\.txt$/);
      expect(result).toMatchObject({ failures: [], conflicts: [{ index: 0, path: "/docs/report.txt", savedAs }] });
      expect(await text(object, "/docs/report.txt")).toBe("v2 from the API\n");
      expect(await text(object, savedAs)).toBe("v2 from the box\n");
      // The entry is the object's version, so computerd brings that one down to its replica.
      expect(result.entries[0]?.etag).toBe((kept as { etag: string }).etag);
      // The copy's revision is in the log under its own name, so a pull brings it down too.
      const changes = await sync.changes((result.revs[0] ?? 1) - 1, 10);
      expect(changes.changes.flatMap((c) => c.paths)).toContain(savedAs);
    }));

  it("applies an op whose base the path still holds", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a.txt", bytes("old\n")));
      const result = await apply(sync, [write("/a.txt", "new\n", baseOf(object, "/a.txt"))]);
      expect(result).toMatchObject({ failures: [], conflicts: [] });
      expect(await text(object, "/a.txt")).toBe("new\n");
      expect(ok(object.vfs.list("/")).entries.map((e) => e.name)).toEqual(["a.txt"]);
    }));

  it("makes no second copy and no change when a conflicting batch is sent again", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/n.txt", bytes("API\n")));
      // The container created the file too, not knowing of the API's (base: nothing there).
      const batch = [write("/n.txt", "box\n", null)];
      const first = await apply(sync, batch);
      const revision = object.vfs.revision();
      const again = await apply(sync, batch);
      expect(again.conflicts).toEqual(first.conflicts);
      expect(again.revs).toEqual([0]);
      expect(object.vfs.revision()).toBe(revision);
      const listed = ok(object.vfs.list("/"));
      expect(listed.entries.map((e) => e.name).sort()).toEqual(
        ["n.txt", (first.conflicts?.[0]?.savedAs ?? "").slice(1)].sort(),
      );
    }));

  it("takes a batch sent again after it applied cleanly as no change, not as a conflict", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/f.txt", bytes("old\n")));
      const batch: SyncOp[] = [
        write("/f.txt", "new\n", baseOf(object, "/f.txt")),
        { op: "mkdir", path: "/made", mode: 0o755, base: null },
        { op: "symlink", path: "/made/link", target: "../f.txt", base: null },
      ];
      expect(await apply(sync, batch)).toMatchObject({ failures: [], conflicts: [] });
      const again = await apply(sync, batch);
      expect(again).toMatchObject({ failures: [], conflicts: [], revs: [0, 0, 0] });
    }));

  it("takes an API write over a push whose answer computerd never heard as sequential, not a conflict", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/a.txt", bytes("base\n")));
      const batch = [write("/a.txt", "box\n", baseOf(object, "/a.txt"))];
      expect((await apply(sync, batch)).conflicts).toEqual([]);
      // computerd died before the answer; the API then wrote over the box's version knowingly.
      ok(await object.vfs.write("/a.txt", bytes("API after the box\n"), { ifMatch: baseOfEtag(object, "/a.txt") }));
      const again = await apply(sync, batch);
      expect(again).toMatchObject({ failures: [], conflicts: [], unchanged: [0] });
      expect(await text(object, "/a.txt")).toBe("API after the box\n");
      expect(ok(object.vfs.list("/")).entries.map((e) => e.name)).toEqual(["a.txt"]);
    }));

  it("applies the box's next change over its own push whose answer was lost", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/b.txt", bytes("base\n")));
      const base = baseOf(object, "/b.txt");
      await apply(sync, [write("/b.txt", "box 1\n", base)]);
      // Still on the old base: computerd never recorded that box 1 landed.
      const next = await apply(sync, [write("/b.txt", "box 2\n", base)]);
      expect(next).toMatchObject({ failures: [], conflicts: [] });
      expect(await text(object, "/b.txt")).toBe("box 2\n");
    }));

  it("still keeps both when the box brings back an old version on top of a newer base", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/c.txt", bytes("v0\n")));
      await apply(sync, [write("/c.txt", "v1 box\n", baseOf(object, "/c.txt"))]);
      ok(await object.vfs.write("/c.txt", bytes("v2 API\n")));
      const seen = baseOf(object, "/c.txt");
      ok(await object.vfs.write("/c.txt", bytes("v3 API\n")));
      // The box saw v2 and wrote v1's bytes again: a change of its own, made before v3.
      const result = await apply(sync, [write("/c.txt", "v1 box\n", seen)]);
      expect(result.conflicts).toHaveLength(1);
      expect(await text(object, "/c.txt")).toBe("v3 API\n");
      expect(await text(object, result.conflicts?.[0]?.savedAs ?? "")).toBe("v1 box\n");
    }));

  it("keeps a file the API wrote where the container removed it, and reports the dropped removal", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/keep.txt", bytes("v1\n")));
      const base = baseOf(object, "/keep.txt");
      ok(await object.vfs.write("/keep.txt", bytes("v2 API\n")));
      ok(await object.vfs.write("/fresh.txt", bytes("API made it\n")));
      const result = await apply(sync, [
        { op: "remove", path: "/keep.txt", base },
        // Made and removed again in the box: no change of the container's, so nothing to report.
        { op: "remove", path: "/fresh.txt", base: null },
      ]);
      expect(result.conflicts).toEqual([{ index: 0, path: "/keep.txt", savedAs: null }]);
      // Said apart, so computerd brings the object's file down instead of believing it gone.
      expect(result.unchanged).toEqual([1]);
      expect(result.entries[1]).toMatchObject({ path: "/fresh.txt", type: "file" });
      expect(await text(object, "/keep.txt")).toBe("v2 API\n");
      expect(await text(object, "/fresh.txt")).toBe("API made it\n");
    }));

  it("keeps the API's deletion and saves the container's edit of the deleted file as a copy", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/gone.txt", bytes("v1\n")));
      const base = baseOf(object, "/gone.txt");
      ok(await object.vfs.remove("/gone.txt"));
      const result = await apply(sync, [write("/gone.txt", "edited in the box\n", base)]);
      const savedAs = conflictName("/gone.txt", conflictStamp(null));
      expect(result.conflicts).toEqual([{ index: 0, path: "/gone.txt", savedAs }]);
      expect(await text(object, "/gone.txt")).toBe("ENOENT");
      expect(await text(object, savedAs)).toBe("edited in the box\n");
    }));

  it("drops a mode change on a file the API changed", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/run.sh", bytes("v1\n")));
      const base = baseOf(object, "/run.sh");
      ok(await object.vfs.write("/run.sh", bytes("v2\n")));
      const result = await apply(sync, [{ op: "chmod", path: "/run.sh", mode: 0o755, base }]);
      expect(result.conflicts).toEqual([{ index: 0, path: "/run.sh", savedAs: null }]);
      expect(object.vfs.lstat("/run.sh")).toMatchObject({ ok: true, stat: { mode: 0o644 } });
    }));

  it("removes a directory only of what the container knew, keeping what the API added", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/d/known.txt", bytes("k\n")));
      const knownBase = baseOf(object, "/d/known.txt");
      ok(await object.vfs.write("/d/added-by-api.txt", bytes("a\n")));
      const result = await apply(sync, [
        { op: "remove", path: "/d/known.txt", base: knownBase },
        { op: "remove", path: "/d", base: { type: "dir" } },
      ]);
      expect(result.conflicts).toEqual([{ index: 1, path: "/d", savedAs: null }]);
      expect(await text(object, "/d/known.txt")).toBe("ENOENT");
      expect(await text(object, "/d/added-by-api.txt")).toBe("a\n");
    }));

  it("replaces a directory the container knew whole, once its entries are removed first", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/d/x.txt", bytes("x\n")));
      const result = await apply(sync, [
        { op: "remove", path: "/d/x.txt", base: baseOf(object, "/d/x.txt") },
        write("/d", "now a file\n", { type: "dir" }),
      ]);
      expect(result).toMatchObject({ failures: [], conflicts: [] });
      expect(await text(object, "/d")).toBe("now a file\n");
    }));

  it("puts what the container wrote under a directory the API replaced with a file into that path's copy", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/out", bytes("API: out is a file now\n")));
      const kept = baseOf(object, "/out");
      const result = await apply(sync, [
        write("/out/a.txt", "box a\n", null),
        write("/out/sub/b.txt", "box b\n", null),
      ]);
      const root = conflictName("/out", conflictStamp(kept));
      expect(result.conflicts).toEqual([
        { index: 0, path: "/out/a.txt", savedAs: `${root}/a.txt` },
        { index: 1, path: "/out/sub/b.txt", savedAs: `${root}/sub/b.txt` },
      ]);
      expect(await text(object, "/out")).toBe("API: out is a file now\n");
      expect(await text(object, `${root}/sub/b.txt`)).toBe("box b\n");
    }));

  it("saves a directory the container made where the API made a file as the copy its entries go into", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/p", bytes("API file\n")));
      const kept = baseOf(object, "/p");
      const result = await apply(sync, [
        { op: "mkdir", path: "/p", mode: 0o750, base: null },
        write("/p/c.txt", "inside\n", null),
      ]);
      const root = conflictName("/p", conflictStamp(kept));
      expect(result.conflicts).toEqual([
        { index: 0, path: "/p", savedAs: root },
        { index: 1, path: "/p/c.txt", savedAs: `${root}/c.txt` },
      ]);
      expect(object.vfs.lstat(root)).toMatchObject({ ok: true, stat: { type: "dir", mode: 0o750 } });
      expect(await text(object, `${root}/c.txt`)).toBe("inside\n");
    }));

  it("merges a directory both sides made, and new files into a directory the API removed", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.mkdir("/both"));
      ok(await object.vfs.mkdir("/removed"));
      const removedBase = baseOf(object, "/removed");
      ok(await object.vfs.remove("/removed"));
      const result = await apply(sync, [
        { op: "mkdir", path: "/both", mode: 0o755, base: null },
        write("/removed/new.txt", "made in the box\n", null),
        { op: "mkdir", path: "/removed", mode: 0o755, base: removedBase },
      ]);
      expect(result).toMatchObject({ failures: [], conflicts: [] });
      expect(await text(object, "/removed/new.txt")).toBe("made in the box\n");
    }));

  it("saves a link the container made where the API wrote a file, and a large file's upload the same way", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/l", bytes("API\n")));
      ok(await object.vfs.write("/big.bin", bytes("API small\n")));
      const upload = await sync.upload();
      const chunk = new Uint8Array(4 * 1024 * 1024).map((_, i) => i % 251);
      await upload.append(chunk);
      await upload.append(chunk);
      const result = await apply(sync, [
        { op: "symlink", path: "/l", target: "elsewhere", base: null },
        { op: "commitUpload", path: "/big.bin", uploadId: await upload.id(), mode: 0o644, base: null },
      ]);
      expect(result.failures).toEqual([]);
      const [link, big] = result.conflicts ?? [];
      expect(object.vfs.readlink(link?.savedAs ?? "")).toEqual({ ok: true, target: "elsewhere" });
      expect(object.vfs.lstat(big?.savedAs ?? "")).toMatchObject({ ok: true, stat: { size: 8 * 1024 * 1024 } });
      expect(await text(object, "/big.bin")).toBe("API small\n");
    }));

  it("steps past a conflict name that something else holds", () =>
    withTarget(async (sync, object) => {
      ok(await object.vfs.write("/x.txt", bytes("API\n")));
      const first = conflictName("/x.txt", conflictStamp(baseOf(object, "/x.txt")));
      ok(await object.vfs.write(first, bytes("a user's own file of that name\n")));
      const result = await apply(sync, [write("/x.txt", "box\n", null)]);
      const savedAs = result.conflicts?.[0]?.savedAs ?? "";
      expect(savedAs).toMatch(/^\/x\.conflict-[0-9a-f]{8}-2\.txt$/);
      expect(await text(object, first)).toBe("a user's own file of that name\n");
      expect(await text(object, savedAs)).toBe("box\n");
    }));
});
