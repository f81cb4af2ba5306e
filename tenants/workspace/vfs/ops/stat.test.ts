import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("stat, lstat, readlink", () => {
  it("stat follows a final link, lstat and readlink do not", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/dir/file.txt", bytes("12345")));
      ok(await vfs.symlink("dir/file.txt", "/link"));
      expect(ok(vfs.stat("/link")).stat).toMatchObject({ path: "/dir/file.txt", type: "file", size: 5, mode: 0o644 });
      expect(ok(vfs.lstat("/link")).stat).toMatchObject({ path: "/link", type: "symlink", target: "dir/file.txt" });
      expect(ok(vfs.readlink("/link")).target).toBe("dir/file.txt");
      expect(vfs.readlink("/dir/file.txt")).toMatchObject({ ok: false, code: "EINVAL" });
      expect(ok(vfs.stat("/")).stat).toMatchObject({ path: "/", type: "dir" });
      expect(vfs.stat("/dir/file.txt/x")).toMatchObject({ ok: false, code: "ENOTDIR" });
      expect(vfs.stat("/nope")).toMatchObject({ ok: false, code: "ENOENT" });
    }));
});
