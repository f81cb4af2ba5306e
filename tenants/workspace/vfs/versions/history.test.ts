/**
 * A path's history as a user reads it: every listed version reads back with its `readAt`,
 * and a run leaves one version per file, however often it wrote it.
 */
import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";
import type { Vfs } from "../Vfs.ts";

async function textAt(vfs: Vfs, ref: string | number, path: string): Promise<string> {
  const result = ok(vfs.readAt(ref, path));
  return new TextDecoder().decode(await new Response(result.body).arrayBuffer());
}

const writeAs = (vfs: Vfs, actor: string, path: string, text: string) =>
  vfs.actingAs(actor, () => vfs.write(path, bytes(text)));

describe("history's readAt", () => {
  it("reads every listed version back at its path, and lists none the path cannot read", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      ok(await vfs.write("/f", bytes("one")));
      ok(await vfs.write("/f", bytes("two!")));
      ok(await vfs.move("/f", "/g"));
      // A version of the same file made under another name: /f never held it.
      ok(await vfs.write("/g", bytes("four-4")));
      ok(await vfs.write("/f", bytes("three")));
      const { versions } = ok(vfs.history("/f"));
      expect(versions.map((v) => v.size)).toEqual([5, 4, 3]);
      for (const version of versions) {
        expect(ok(vfs.statAt(version.readAt, "/f")).stat.etag).toBe(version.etag);
      }
      expect(await textAt(vfs, versions[1]?.readAt as string, "/f")).toBe("two!");
      expect(versions[2]?.readAt).toBe(String(versions[2]?.revision));
    });
  });

  it("finds a file's versions after its directory was removed or renamed", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      ok(await vfs.write("/src/a.txt", bytes("1")));
      ok(await vfs.write("/src/a.txt", bytes("22")));
      ok(await vfs.move("/src", "/lib"));
      ok(await vfs.remove("/lib", { recursive: true }));
      const { path, versions } = ok(vfs.history("/src/a.txt"));
      expect(path).toBe("/src/a.txt");
      expect(versions.map((v) => v.size)).toEqual([2, 1]);
      expect(await textAt(vfs, versions[1]?.readAt as string, "/src/a.txt")).toBe("1");
      expect(ok(vfs.history("/lib/a.txt")).versions.map((v) => v.size)).toEqual([2]);
      expect(vfs.history("/src/never.txt")).toMatchObject({ ok: false, code: "ENOENT" });
      // The root has versions too: each change of its entries, every one read back.
      const root = ok(vfs.history("/")).versions;
      expect(root.length).toBeGreaterThan(1);
      for (const version of root) expect(ok(vfs.statAt(version.readAt, "/")).stat.ino).toBe(1);
    });
  });

  it("shows a file deleted and restored as two versions, not one that never left", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      ok(await vfs.write("/f", bytes("same")));
      const snap = await vfs.snapshot();
      ok(await vfs.remove("/f"));
      const restored = ok(await vfs.restore(snap.id));
      const { versions } = ok(vfs.history("/f"));
      expect(versions.map((v) => [v.revision, v.until, v.op])).toEqual([
        [restored.revision, null, "restore"],
        [snap.revision, snap.revision + 1, "write"],
      ]);
    });
  });

  it("names the snapshot that keeps a version when no window does", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("kept by a snapshot")));
      const snap = await vfs.snapshot();
      ok(await vfs.write("/f", bytes("live")));
      const { versions } = ok(vfs.history("/f"));
      expect(versions.map((v) => v.readAt)).toEqual([String(vfs.revision()), snap.id]);
      expect(await textAt(vfs, versions[1]?.readAt as string, "/f")).toBe("kept by a snapshot");
    });
  });
});

describe("a run's versions", () => {
  it("are one per file, what the run left, however many times it wrote", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      ok(await writeAs(vfs, "key:key_1", "/f", "before"));
      const beforeRun = vfs.revision();
      for (const text of ["1", "22", "333"]) ok(await writeAs(vfs, "exec:ex_a", "/f", text));
      // A scratch file the run made and removed leaves nothing behind.
      ok(await writeAs(vfs, "exec:ex_a", "/tmp.txt", "scratch"));
      ok(await vfs.actingAs("exec:ex_a", () => vfs.remove("/tmp.txt")));
      ok(await writeAs(vfs, "exec:ex_b", "/f", "4444"));
      const { versions } = ok(vfs.history("/f"));
      expect(versions.map((v) => [v.size, v.actor])).toEqual([
        [4, "exec:ex_b"],
        [3, "exec:ex_a"],
        [6, "key:key_1"],
      ]);
      expect(await textAt(vfs, versions[1]?.readAt as string, "/f")).toBe("333");
      expect(vfs.history("/tmp.txt")).toMatchObject({ ok: false, code: "ENOENT" });
      // The states the run passed through are not kept; asking for one says which to read.
      expect(vfs.readAt(beforeRun + 1, "/f")).toMatchObject({
        ok: false,
        code: "ENOENT",
        message: expect.stringContaining("exec:ex_a"),
      });
      // Across the run, a diff is exact.
      expect(ok(await vfs.diff(beforeRun, versions[1]?.readAt as string)).entries).toMatchObject([
        { path: "/f", status: "modified", before: { size: 6 }, after: { size: 3 } },
      ]);
    });
  });

  it("keep what a snapshot taken while they ran pins", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      ok(await writeAs(vfs, "exec:ex_a", "/f", "1"));
      const snap = await vfs.snapshot();
      ok(await writeAs(vfs, "exec:ex_a", "/f", "22"));
      ok(await writeAs(vfs, "exec:ex_a", "/f", "333"));
      expect(await textAt(vfs, snap.id, "/f")).toBe("1");
      expect(await textAt(vfs, snap.revision, "/f")).toBe("1");
      expect(ok(vfs.history("/f")).versions.map((v) => v.size)).toEqual([3, 1]);
    });
  });
});
