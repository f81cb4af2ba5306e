import { describe, expect, it } from "vitest";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("move", () => {
  it("moves a large directory by changing one entry", () =>
    withVfs(async (vfs) => {
      for (let i = 0; i < 200; i++) ok(await vfs.write(`/src/deep/f${i}`, bytes(String(i))));
      const entriesBefore = vfs.stats().entryCount;
      ok(await vfs.move("/src", "/dst"));
      expect(await readText(vfs, "/dst/deep/f199")).toBe("199");
      expect(vfs.stat("/src")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(vfs.stats().entryCount).toBe(entriesBefore);
    }));

  it("follows rename(2) for every kind of target", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a", bytes("a")));
      ok(await vfs.write("/b", bytes("b")));
      ok(await vfs.move("/a", "/b"));
      expect(await readText(vfs, "/b")).toBe("a");
      expect(vfs.counters()).toEqual({ sizeBytes: 1, fileCount: 1 });
      ok(await vfs.mkdir("/d"));
      ok(await vfs.mkdir("/e"));
      ok(await vfs.write("/e/x", bytes("x")));
      expect(await vfs.move("/b", "/d")).toMatchObject({ ok: false, code: "EISDIR" });
      expect(await vfs.move("/d", "/b")).toMatchObject({ ok: false, code: "ENOTDIR" });
      expect(await vfs.move("/d", "/e")).toMatchObject({ ok: false, code: "ENOTEMPTY" });
      expect(await vfs.move("/e", "/e/inside")).toMatchObject({ ok: false, code: "EINVAL" });
      expect(await vfs.move("/b", "/e/x", { overwrite: false })).toMatchObject({ ok: false, code: "EEXIST" });
      ok(await vfs.mkdir("/empty"));
      ok(await vfs.move("/e", "/empty"));
      expect(await readText(vfs, "/empty/x")).toBe("x");
      expect(await vfs.move("/missing", "/z")).toMatchObject({ ok: false, code: "ENOENT" });
    }));

  it("moves a symlink itself, not its target", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/t", bytes("t")));
      ok(await vfs.symlink("/t", "/l"));
      ok(await vfs.move("/l", "/l2"));
      expect(ok(vfs.lstat("/l2")).stat.type).toBe("symlink");
      expect(ok(vfs.stat("/t")).stat.type).toBe("file");
    }));
});
