import { describe, expect, it } from "vitest";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("copy", () => {
  it("copies files and trees sharing content, and they diverge independently", () =>
    withVfs(async (vfs) => {
      const big = new Uint8Array(3 * 512 * 1024).fill(9);
      ok(await vfs.write("/src/big", big));
      ok(await vfs.write("/src/sub/small", bytes("s")));
      ok(await vfs.symlink("small", "/src/sub/link"));
      const before = vfs.stats();
      ok(await vfs.copy("/src", "/dst"));
      const after = vfs.stats();
      expect(after.chunkBytes).toBe(before.chunkBytes);
      expect(after.sizeBytes).toBe(before.sizeBytes * 2);
      expect(ok(vfs.readlink("/dst/sub/link")).target).toBe("small");
      ok(await vfs.write("/dst/sub/small", bytes("changed")));
      expect(await readText(vfs, "/src/sub/small")).toBe("s");
      expect(ok(vfs.stat("/dst/big")).stat.etag).toBe(ok(vfs.stat("/src/big")).stat.etag);
    }));

  it("refuses existing targets and copying into itself", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a", bytes("a")));
      ok(await vfs.write("/b", bytes("b")));
      expect(await vfs.copy("/a", "/b")).toMatchObject({ ok: false, code: "EEXIST" });
      ok(await vfs.copy("/a", "/b", { overwrite: true }));
      expect(await readText(vfs, "/b")).toBe("a");
      ok(await vfs.mkdir("/d"));
      expect(await vfs.copy("/d", "/d/sub")).toMatchObject({ ok: false, code: "EINVAL" });
    }));
});
