import { describe, expect, it } from "vitest";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("batch", () => {
  it("applies writes, deletes and moves together", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/old", bytes("old")));
      const result = ok(
        await vfs.batch([
          { op: "write", path: "/new/a", content: bytes("a") },
          { op: "move", from: "/old", to: "/new/old" },
          { op: "delete", path: "/new/a" },
        ]),
      );
      expect(result.results.map((r) => r.op)).toEqual(["write", "move", "delete"]);
      expect(await readText(vfs, "/new/old")).toBe("old");
      expect(vfs.stat("/new/a")).toMatchObject({ ok: false, code: "ENOENT" });
    }));

  it("applies nothing when one operation fails, and names it", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/keep", bytes("keep")));
      const revision = vfs.stats().revision;
      const failed = await vfs.batch([
        { op: "write", path: "/x", content: bytes("x") },
        { op: "delete", path: "/keep" },
        { op: "move", from: "/missing", to: "/y" },
      ]);
      expect(failed).toMatchObject({ ok: false, code: "ENOENT", index: 2 });
      expect(vfs.stat("/x")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(await readText(vfs, "/keep")).toBe("keep");
      expect(vfs.stats().revision).toBe(revision);
      expect(vfs.counters()).toEqual({ sizeBytes: 4, fileCount: 1 });
    }));

  it("checks If-Match per write", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("1")));
      const stale = await vfs.batch([{ op: "write", path: "/f", content: bytes("2"), ifMatch: '"nope"' }]);
      expect(stale).toMatchObject({ ok: false, code: "EPRECONDITION", index: 0 });
    }));
});
