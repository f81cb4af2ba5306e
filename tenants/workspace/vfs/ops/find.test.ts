import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("find", () => {
  it("filters by glob, type, size and modification time", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/p/a.ts", bytes("12345")));
      ok(await vfs.write("/p/q/b.ts", bytes("1")));
      ok(await vfs.write("/p/q/c.md", bytes("123456789")));
      const names = (r: { entries: { path: string }[] }) => r.entries.map((e) => e.path);
      expect(names(ok(vfs.find("/p", { name: "*.ts" })))).toEqual(["/p/a.ts", "/p/q/b.ts"]);
      expect(names(ok(vfs.find("/p", { name: "q/*" })))).toEqual(["/p/q/b.ts", "/p/q/c.md"]);
      expect(names(ok(vfs.find("/p", { type: "dir" })))).toEqual(["/p/q"]);
      expect(names(ok(vfs.find("/", { type: "file", minSize: 2, maxSize: 5 })))).toEqual(["/p/a.ts"]);
      const future = new Date(Date.now() + 60_000).toISOString();
      expect(names(ok(vfs.find("/", { modifiedAfter: future })))).toEqual([]);
      expect(ok(vfs.find("/", { modifiedBefore: future, limit: 2 }))).toMatchObject({ truncated: true });
    }));
});
