import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("chmod", () => {
  it("sets permission bits, through links, within range", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/run.sh", bytes("#!/bin/sh")));
      ok(await vfs.symlink("run.sh", "/l"));
      ok(await vfs.chmod("/l", 0o755));
      expect(ok(vfs.stat("/run.sh")).stat.mode).toBe(0o755);
      expect(await vfs.chmod("/run.sh", 0o10000)).toMatchObject({ ok: false, code: "EINVAL" });
      expect(await vfs.chmod("/none", 0o644)).toMatchObject({ ok: false, code: "ENOENT" });
    }));
});
