/**
 * The workspace side of container sync, inside a real workspace object: applying the
 * container's path states is idempotent, replaces whatever kind of entry was there, stages
 * large files without holding them, and the tree computerd walks and reads is the object's.
 * Facets elsewhere: a push's new files written together (.adds), owners, times and hard links
 * (.metadata), ops with bases (.conflict, .links).
 */
import { describe, expect, it } from "vitest";
import type { ApplyResult, SyncOp } from "../../../container/wire/index.ts";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import { text, withTarget } from "./test/syncTarget.ts";

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
