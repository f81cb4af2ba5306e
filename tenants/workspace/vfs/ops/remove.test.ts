import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("remove", () => {
  it("removes files, links (not their targets) and directories", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/t/a", bytes("a")));
      ok(await vfs.symlink("t/a", "/l"));
      ok(await vfs.remove("/l"));
      expect(ok(vfs.stat("/t/a")).stat.size).toBe(1);
      expect(await vfs.remove("/t")).toMatchObject({ ok: false, code: "ENOTEMPTY" });
      expect(ok(await vfs.remove("/t", { recursive: true })).removed).toBe(2);
      expect(vfs.stat("/t")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(await vfs.remove("/")).toMatchObject({ ok: false, code: "EINVAL" });
      expect(vfs.counters()).toEqual({ sizeBytes: 0, fileCount: 0 });
    }));

  it("removes only the expected version with ifMatch", () =>
    withVfs(async (vfs) => {
      const { stat } = ok(await vfs.write("/f", bytes("1")));
      ok(await vfs.write("/f", bytes("2")));
      expect(await vfs.remove("/f", { ifMatch: stat.etag as string })).toMatchObject({
        ok: false,
        code: "EPRECONDITION",
      });
      ok(await vfs.remove("/f", { ifMatch: ok(vfs.stat("/f")).stat.etag as string }));
    }));
});
