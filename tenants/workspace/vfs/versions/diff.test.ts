import { describe, expect, it } from "vitest";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("diff", () => {
  it("names each changed path added, modified, deleted or renamed, with sizes and etags", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/src/a.txt", bytes("alpha\n")));
      ok(await vfs.write("/src/b.txt", bytes("beta\n")));
      ok(await vfs.write("/src/c.txt", bytes("gamma\n")));
      ok(await vfs.write("/docs/x.md", bytes("x\n")));
      const snap = await vfs.snapshot();
      ok(await vfs.write("/src/a.txt", bytes("alpha\nmore\n")));
      ok(await vfs.remove("/src/b.txt"));
      ok(await vfs.move("/src/c.txt", "/src/d.txt"));
      ok(await vfs.move("/docs", "/manual"));
      ok(await vfs.write("/new.bin", new Uint8Array([0, 1, 2])));
      const result = ok(await vfs.diff(snap.id, "live", { patch: true }));
      expect(result.entries.map((e) => [e.status, e.path, e.previousPath])).toEqual([
        ["renamed", "/manual", "/docs"],
        ["added", "/new.bin", undefined],
        ["modified", "/src/a.txt", undefined],
        ["deleted", "/src/b.txt", undefined],
        ["renamed", "/src/d.txt", "/src/c.txt"],
      ]);
      const modified = result.entries[2];
      expect(modified?.before).toMatchObject({ size: 6 });
      expect(modified?.after).toMatchObject({ size: 11 });
      expect(modified?.before?.etag).not.toBe(modified?.after?.etag);
      expect(result.patch).toContain("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,1 +1,2 @@\n alpha\n+more\n");
      // git's extended headers, so `git apply` creates and deletes files.
      expect(result.patch).toContain(
        "diff --git a/src/b.txt b/src/b.txt\ndeleted file mode 100644\n--- a/src/b.txt\n+++ /dev/null\n",
      );
      expect(result.patch).toContain("diff --git a/new.bin b/new.bin\nnew file mode 100644\nBinary files");
      expect(result.patch).toContain("Binary files /dev/null and b/new.bin differ");
      expect(result.patch).toContain("rename from src/c.txt\nrename to src/d.txt\n");
    });
  });

  it("between two revisions in the history window, and nothing between a version and itself", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      ok(await vfs.write("/f", bytes("1")));
      const r1 = vfs.revision();
      ok(await vfs.write("/f", bytes("2")));
      ok(await vfs.chmod("/f", 0o600));
      const r3 = vfs.revision();
      expect(ok(await vfs.diff(r1, r3)).entries).toMatchObject([
        { path: "/f", status: "modified", before: { mode: 0o644 }, after: { mode: 0o600 } },
      ]);
      expect(ok(await vfs.diff(r3, "live")).entries).toEqual([]);
      expect(await vfs.diff("snap_nope")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(await vfs.diff(r3 + 5)).toMatchObject({ ok: false, code: "ENOENT" });
    });
  });
});

describe("diff, narrowed and bounded", () => {
  it("keeps what is at or under `path`, a rename counted by either end", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/src/a.ts", bytes("a")));
      ok(await vfs.write("/src/b.ts", bytes("b")));
      ok(await vfs.write("/docs/x.md", bytes("x")));
      const snap = await vfs.snapshot();
      ok(await vfs.write("/src/a.ts", bytes("a2")));
      ok(await vfs.move("/src/b.ts", "/b.ts"));
      ok(await vfs.write("/docs/x.md", bytes("x2")));
      ok(await vfs.write("/srcfoo", bytes("not under /src")));
      const under = ok(await vfs.diff(snap.id, "live", { path: "/src" }));
      expect(under.entries.map((e) => [e.status, e.path])).toEqual([
        ["renamed", "/b.ts"],
        ["modified", "/src/a.ts"],
      ]);
      const one = ok(await vfs.diff(snap.id, "live", { path: "/docs/x.md", patch: true }));
      expect(one.entries.map((e) => e.path)).toEqual(["/docs/x.md"]);
      expect(one.patch).not.toContain("src");
    });
  });

  it("says a file became executable as git does, so `git apply` sets the mode", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/run.sh", bytes("echo hi\n")));
      const snap = await vfs.snapshot();
      ok(await vfs.chmod("/run.sh", 0o755));
      expect(ok(await vfs.diff(snap.id, "live", { patch: true })).patch).toBe(
        "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
      );
    });
  });

  it("refuses a patch past its cap, saying the cap and how to narrow it", async () => {
    await withVfs(async (vfs) => {
      const snap = await vfs.snapshot();
      ok(await vfs.write("/big.txt", bytes("line\n".repeat(100))));
      ok(await vfs.write("/small.txt", bytes("x\n")));
      const refused = await vfs.diff(snap.id, "live", { patch: true, patchBytesMax: 200 });
      expect(refused).toMatchObject({ ok: false, code: "EFBIG" });
      expect(refused.ok ? "" : refused.message).toMatch(/larger than 200 bytes, .*`path`/);
      expect(ok(await vfs.diff(snap.id, "live", { patch: true, patchBytesMax: 200, path: "/small.txt" })).patch).toBe(
        "diff --git a/small.txt b/small.txt\nnew file mode 100644\n--- /dev/null\n+++ b/small.txt\n@@ -1,0 +1,1 @@\n+x\n",
      );
    });
  });
});

describe("restore", () => {
  it("sets back a directory's mode, which a diff shows though it hides directory times", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.mkdir("/private"));
      ok(await vfs.write("/private/key", bytes("k")));
      const snap = await vfs.snapshot();
      ok(await vfs.chmod("/private", 0o700));
      ok(await vfs.write("/private/other", bytes("o")));
      expect(ok(await vfs.diff(snap.id)).entries).toMatchObject([
        { path: "/private", status: "modified", before: { mode: 0o755 }, after: { mode: 0o700 } },
        { path: "/private/other", status: "added" },
      ]);
      expect(ok(await vfs.restore(snap.id)).changedPaths).toBe(2);
      expect(ok(vfs.stat("/private")).stat.mode).toBe(0o755);
      // A directory's times alone differing is still a difference a restore sets back (a
      // container's `ls -l` shows them); once equal, another restore makes no revision.
      ok(await vfs.write("/private/tmp", bytes("t")));
      ok(await vfs.remove("/private/tmp"));
      expect(ok(await vfs.restore(snap.id)).changedPaths).toBe(1);
      expect(ok(await vfs.restore(snap.id)).changedPaths).toBe(0);
    });
  });

  it("names the version it went back to, and makes no revision when the tree already equals it", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("one")));
      const snap = await vfs.snapshot();
      ok(await vfs.write("/f", bytes("two")));
      const restored = ok(await vfs.restore(snap.id));
      expect(restored).toMatchObject({
        changedPaths: 1,
        restoredTo: { revision: snap.revision, snapshotId: snap.id },
      });
      expect(vfs.changesSince(restored.revision - 1).changes).toMatchObject([{ op: "restore", restoredTo: snap.id }]);
      const again = ok(await vfs.restore(snap.id));
      expect(again).toEqual({
        ok: true,
        revision: restored.revision,
        changedPaths: 0,
        restoredTo: { revision: snap.revision, snapshotId: snap.id },
      });
      expect(ok(await vfs.restore(snap.revision)).restoredTo).toEqual({ revision: snap.revision, snapshotId: null });
      expect(ok(await vfs.restore("live")).changedPaths).toBe(0);
      expect(vfs.revision()).toBe(restored.revision);
    });
  });

  it("makes the live tree the version's as a new revision, which is itself undone by restoring", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/keep.txt", bytes("keep")));
      ok(await vfs.write("/dir/edit.txt", bytes("before")));
      ok(await vfs.link("/keep.txt", "/dir/hard"));
      const snap = await vfs.snapshot();
      ok(await vfs.write("/dir/edit.txt", bytes("after")));
      ok(await vfs.remove("/dir/hard"));
      ok(await vfs.move("/keep.txt", "/moved.txt"));
      ok(await vfs.write("/extra/new.txt", bytes("new")));
      const beforeRestore = await vfs.snapshot();
      const restored = ok(await vfs.restore(snap.id));
      expect(restored.revision).toBe(beforeRestore.revision + 1);
      expect(await readText(vfs, "/dir/edit.txt")).toBe("before");
      expect(await readText(vfs, "/keep.txt")).toBe("keep");
      expect(ok(vfs.stat("/dir/hard")).stat).toMatchObject({ nlink: 2, ino: ok(vfs.stat("/keep.txt")).stat.ino });
      expect(vfs.stat("/moved.txt")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(vfs.stat("/extra")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(vfs.counters()).toEqual({ sizeBytes: 10, fileCount: 2 });
      expect(ok(await vfs.diff(snap.id)).entries).toEqual([]);
      // The change log names every path that differs, so a container's sync pulls them.
      const last = vfs.changesSince(restored.revision - 1).changes.at(-1);
      expect(last).toMatchObject({ op: "restore" });
      expect(last?.paths).toEqual(
        expect.arrayContaining(["/dir/edit.txt", "/dir/hard", "/keep.txt", "/moved.txt", "/extra"]),
      );
      ok(await vfs.restore(beforeRestore.id));
      expect(await readText(vfs, "/extra/new.txt")).toBe("new");
      expect(await readText(vfs, "/dir/edit.txt")).toBe("after");
      expect(vfs.stat("/keep.txt")).toMatchObject({ ok: false, code: "ENOENT" });
    });
  });

  it("names and restores changes deep in the tree and under a directory renamed since", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/a/b/c/d/deep.txt", bytes("deep")));
      ok(await vfs.write("/a/b/c/side.txt", bytes("side")));
      ok(await vfs.write("/top.txt", bytes("top")));
      const snap = await vfs.snapshot();
      ok(await vfs.write("/a/b/c/d/deep.txt", bytes("deeper")));
      ok(await vfs.move("/a/b", "/a/renamed"));
      ok(await vfs.write("/a/renamed/c/side.txt", bytes("moved and edited")));
      ok(await vfs.write("/x/y/z/new.txt", bytes("new")));
      const changed = ok(await vfs.diff(snap.id)).entries.map((entry) => [
        entry.status,
        entry.path,
        entry.previousPath,
      ]);
      // An edited file under the renamed directory left one path for another: renamed, with both sides.
      expect(changed).toEqual([
        ["renamed", "/a/renamed", "/a/b"],
        ["renamed", "/a/renamed/c/d/deep.txt", "/a/b/c/d/deep.txt"],
        ["renamed", "/a/renamed/c/side.txt", "/a/b/c/side.txt"],
        ["added", "/x", undefined],
        ["added", "/x/y", undefined],
        ["added", "/x/y/z", undefined],
        ["added", "/x/y/z/new.txt", undefined],
      ]);
      ok(await vfs.restore(snap.id));
      expect(await readText(vfs, "/a/b/c/d/deep.txt")).toBe("deep");
      expect(await readText(vfs, "/a/b/c/side.txt")).toBe("side");
      expect(vfs.stat("/a/renamed")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(vfs.stat("/x")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(ok(await vfs.diff(snap.id)).entries).toEqual([]);
    });
  });
});

describe("restore of a directory's own metadata", () => {
  it("sets the directory's mode back and names it in the change log, so a container pulls it", async () => {
    await withVfs(async (vfs) => {
      ok(await vfs.write("/private/notes.md", bytes("n")));
      const snap = await vfs.snapshot();
      ok(await vfs.chmod("/private", 0o700));
      const restored = ok(await vfs.restore(snap.id));
      expect(ok(vfs.stat("/private")).stat.mode & 0o777).toBe(0o755);
      expect(restored.changedPaths).toBe(1);
      const last = vfs.changesSince(restored.revision - 1).changes.at(-1);
      expect(last).toMatchObject({ op: "restore", paths: ["/private"] });
    });
  });
});

describe("history", () => {
  it("lists a path's versions newest first with revision, size, etag and who made each", async () => {
    await withVfs(async (vfs) => {
      await vfs.setHistoryWindow(3_600_000);
      await vfs.actingAs("key:key_1", () => vfs.write("/notes.md", bytes("one")));
      await vfs.actingAs("exec:ex_2", () => vfs.write("/notes.md", bytes("two!")));
      ok(await vfs.remove("/notes.md"));
      ok(await vfs.write("/notes.md", bytes("three")));
      const { versions } = ok(vfs.history("/notes.md"));
      expect(versions.map((v) => [v.size, v.actor, v.op])).toEqual([
        [5, null, "write"],
        [4, "exec:ex_2", "write"],
        [3, "key:key_1", "write"],
      ]);
      expect(versions[1]?.until).toBe(versions[1] && versions[1].revision + 1);
      expect(versions[0]?.until).toBeNull();
      expect(versions[0]?.ino).not.toBe(versions[1]?.ino);
    });
  });
});
