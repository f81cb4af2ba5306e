import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("mkdir", () => {
  it("makes one directory, or a whole chain with recursive", () =>
    withVfs(async (vfs) => {
      ok(await vfs.mkdir("/a"));
      expect(await vfs.mkdir("/a")).toMatchObject({ ok: false, code: "EEXIST" });
      expect(await vfs.mkdir("/x/y")).toMatchObject({ ok: false, code: "ENOENT" });
      ok(await vfs.mkdir("/x/y/z", { recursive: true }));
      ok(await vfs.mkdir("/x/y/z", { recursive: true }));
      expect(ok(vfs.stat("/x/y")).stat.type).toBe("dir");
      ok(await vfs.mkdir("/m", { mode: 0o700 }));
      expect(ok(vfs.stat("/m")).stat.mode).toBe(0o700);
    }));

  it("refuses a path through or onto a file", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("")));
      expect(await vfs.mkdir("/f", { recursive: true })).toMatchObject({ ok: false, code: "EEXIST" });
      expect(await vfs.mkdir("/f/sub", { recursive: true })).toMatchObject({ ok: false, code: "ENOTDIR" });
    }));
});
