import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("list", () => {
  it("lists a directory in name order, a page at a time", () =>
    withVfs(async (vfs) => {
      for (const name of ["c", "a", "b", "e", "d"]) ok(await vfs.write(`/d/${name}`, bytes(name)));
      const first = ok(vfs.list("/d", { limit: 2 }));
      expect(first.entries.map((e) => e.name)).toEqual(["a", "b"]);
      const second = ok(vfs.list("/d", { limit: 2, cursor: first.nextCursor as string }));
      const third = ok(vfs.list("/d", { limit: 2, cursor: second.nextCursor as string }));
      expect([...second.entries, ...third.entries].map((e) => e.path)).toEqual(["/d/c", "/d/d", "/d/e"]);
      expect(third.nextCursor).toBeNull();
    }));

  it("lists a subtree recursively in path order across pages", () =>
    withVfs(async (vfs) => {
      for (const path of ["/x/1", "/x/y/2", "/x/y/z/3", "/w"]) ok(await vfs.write(path, bytes("")));
      const paths: string[] = [];
      let cursor: string | undefined;
      do {
        const page = ok(vfs.list("/", { recursive: true, limit: 2, cursor }));
        paths.push(...page.entries.map((e) => e.path));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(paths).toEqual(["/w", "/x", "/x/1", "/x/y", "/x/y/2", "/x/y/z", "/x/y/z/3"]);
    }));

  it("refuses files and missing directories", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("")));
      expect(vfs.list("/f")).toMatchObject({ ok: false, code: "ENOTDIR" });
      expect(vfs.list("/none")).toMatchObject({ ok: false, code: "ENOENT" });
    }));
});
