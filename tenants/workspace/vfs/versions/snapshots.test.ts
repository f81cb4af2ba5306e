import { describe, expect, it } from "vitest";
import { storedBytes } from "../gc.ts";
import { bytes, ok, withVfs } from "../test/withVfs.ts";
import type { Vfs } from "../Vfs.ts";

async function textAt(vfs: Vfs, ref: string | number, path: string): Promise<string> {
  const result = ok(vfs.readAt(ref, path));
  return new TextDecoder().decode(await new Response(result.body).arrayBuffer());
}

async function drain(vfs: Vfs): Promise<void> {
  for (let pass = 0; pass < 100; pass++) if (!(await vfs.maintain()).remaining) return;
}

describe("snapshots", () => {
  it("pin a revision: later writes, moves and deletes leave it reading back as it was", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/a/x.txt", bytes("one")));
      ok(await vfs.write("/a/y.txt", bytes("why")));
      ok(await vfs.symlink("x.txt", "/a/l"));
      const snap = await vfs.snapshot({ name: "first" });
      expect(snap).toMatchObject({ name: "first", sizeBytes: 6, fileCount: 2, revision: vfs.revision() });
      ok(await vfs.write("/a/x.txt", bytes("two")));
      ok(await vfs.mkdir("/b"));
      ok(await vfs.move("/a/y.txt", "/b/y.txt"));
      ok(await vfs.remove("/a/l"));
      ok(await vfs.write("/c.txt", bytes("new")));
      expect(await textAt(vfs, snap.id, "/a/x.txt")).toBe("one");
      expect(await textAt(vfs, snap.id, "/a/y.txt")).toBe("why");
      expect(await textAt(vfs, snap.id, "/a/l")).toBe("one");
      expect(vfs.readAt(snap.id, "/c.txt")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(ok(vfs.listAt(snap.id, "/a")).entries.map((e) => e.name)).toEqual(["l", "x.txt", "y.txt"]);
      expect(ok(vfs.listAt(snap.revision, "/")).entries.map((e) => e.name)).toEqual(["a"]);
      expect(await textAt(vfs, "live", "/a/x.txt")).toBe("two");
    });
  });

  it("list their whole tree in path order, a page at a time, as the live listing does", async () => {
    await withVfs(async (vfs) => {
      for (const path of ["/a/x", "/a/y/z", "/a-b", "/c"]) ok(await vfs.write(path, bytes(path)));
      const snap = await vfs.snapshot();
      ok(await vfs.remove("/a", { recursive: true }));
      ok(await vfs.write("/d", bytes("later")));
      const live = ok(vfs.list("/", { recursive: true })).entries.map((e) => e.path);
      expect(live).toEqual(["/a-b", "/c", "/d"]);
      const all = ok(vfs.listAt(snap.id, "/", { recursive: true })).entries.map((e) => e.path);
      expect(all).toEqual(["/a", "/a-b", "/a/x", "/a/y", "/a/y/z", "/c"]);
      const first = ok(vfs.listAt(snap.id, "/", { recursive: true, limit: 4 }));
      expect(first.nextCursor).toBe("/a/y");
      const rest = ok(vfs.listAt(snap.id, "/", { recursive: true, cursor: first.nextCursor as string }));
      expect([...first.entries, ...rest.entries].map((e) => e.path)).toEqual(all);
      expect(ok(vfs.listAt(snap.id, "/a", { recursive: true })).entries.map((e) => e.path)).toEqual([
        "/a/x",
        "/a/y",
        "/a/y/z",
      ]);
    });
  });

  it("keep their chunks through garbage collection, and give them back when deleted", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("kept by the snapshot")));
      await drain(vfs);
      const floor = storedBytes(vfs.store);
      const snap = await vfs.snapshot();
      ok(await vfs.write("/f", bytes("replaced")));
      ok(await vfs.write("/g", bytes("another")));
      ok(await vfs.remove("/g"));
      await drain(vfs);
      expect(await textAt(vfs, snap.id, "/f")).toBe("kept by the snapshot");
      expect(await vfs.deleteSnapshot(snap.id)).toBe(true);
      await drain(vfs);
      expect(vfs.readAt(snap.id, "/f")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(storedBytes(vfs.store).chunkCount).toBe(floor.chunkCount);
      expect(vfs.store.sql.exec("SELECT count(*) AS n FROM inodes_hist").one().n).toBe(0);
    });
  });

  it("refuse revisions nothing keeps, and keep everything inside the history window", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("v1")));
      const r1 = vfs.revision();
      ok(await vfs.write("/f", bytes("v2")));
      expect(vfs.readAt(r1, "/f")).toMatchObject({ ok: false, code: "ENOENT" });
      await vfs.setHistoryWindow(3_600_000);
      const r2 = vfs.revision();
      ok(await vfs.write("/f", bytes("v3")));
      ok(await vfs.write("/f", bytes("v4")));
      expect(await textAt(vfs, r2, "/f")).toBe("v2");
      expect(await textAt(vfs, r2 + 1, "/f")).toBe("v3");
      await drain(vfs);
      expect(await textAt(vfs, r2 + 1, "/f")).toBe("v3");
    });
  });
});
