import { describe, expect, it } from "vitest";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("symlink", () => {
  it("resolves relative, absolute and chained links; .. stops at the workspace root", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a/b/file", bytes("content")));
      ok(await vfs.symlink("b/file", "/a/rel"));
      ok(await vfs.symlink("/a/rel", "/abs"));
      ok(await vfs.symlink("../../../../a/b", "/a/b/up"));
      expect(await readText(vfs, "/abs")).toBe("content");
      expect(await readText(vfs, "/a/b/up/file")).toBe("content");
      ok(await vfs.symlink("/a", "/dirlink"));
      expect(await readText(vfs, "/dirlink/b/file")).toBe("content");
    }));

  it("reports ELOOP for a cycle and ENOENT for a dangling link", () =>
    withVfs(async (vfs) => {
      ok(await vfs.symlink("/loop2", "/loop1"));
      ok(await vfs.symlink("/loop1", "/loop2"));
      expect(vfs.stat("/loop1")).toMatchObject({ ok: false, code: "ELOOP" });
      expect(ok(vfs.lstat("/loop1")).stat.type).toBe("symlink");
      ok(await vfs.symlink("/nowhere", "/dangling"));
      expect(vfs.stat("/dangling")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(await vfs.symlink("x", "/dangling")).toMatchObject({ ok: false, code: "EEXIST" });
    }));

  it("follows a chain of 40 links and refuses 41", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/end", bytes("end")));
      ok(await vfs.symlink("/end", "/l0"));
      for (let i = 1; i <= 40; i++) ok(await vfs.symlink(`/l${i - 1}`, `/l${i}`));
      expect(await readText(vfs, "/l39")).toBe("end");
      expect(vfs.stat("/l40")).toMatchObject({ ok: false, code: "ELOOP" });
    }));
});
