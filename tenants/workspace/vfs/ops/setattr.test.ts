import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";
import { nsText, parseNs } from "../times.ts";

describe("ownership", () => {
  it("gives everything the API makes to the box's default user, 1000:1000, the root included", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("f")));
      ok(await vfs.mkdir("/d"));
      ok(await vfs.symlink("f", "/l"));
      ok(await vfs.copy("/f", "/c"));
      for (const path of ["/", "/f", "/d", "/c"])
        expect(ok(vfs.stat(path)).stat).toMatchObject({ uid: 1000, gid: 1000 });
      expect(ok(vfs.lstat("/l")).stat).toMatchObject({ uid: 1000, gid: 1000 });
    }));

  it("chown sets either id or both, through a link or (follow: false) of the link itself", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("f")));
      ok(await vfs.symlink("f", "/l"));
      ok(await vfs.chown("/f", { uid: 0 }));
      expect(ok(vfs.stat("/f")).stat).toMatchObject({ uid: 0, gid: 1000 });
      ok(await vfs.chown("/l", { gid: 65534 }));
      expect(ok(vfs.stat("/f")).stat).toMatchObject({ uid: 0, gid: 65534 });
      ok(await vfs.chown("/l", { uid: 7, gid: 8 }, { follow: false }));
      expect(ok(vfs.lstat("/l")).stat).toMatchObject({ uid: 7, gid: 8 });
      expect(ok(vfs.stat("/f")).stat).toMatchObject({ uid: 0, gid: 65534 });
      expect(await vfs.chown("/f", { uid: -1 })).toMatchObject({ ok: false, code: "EINVAL" });
      expect(await vfs.chown("/f", { gid: 2 ** 32 - 1 })).toMatchObject({ ok: false, code: "EINVAL" });
      expect(await vfs.chown("/none", { uid: 1 })).toMatchObject({ ok: false, code: "ENOENT" });
    }));
});

describe("times", () => {
  it("keeps mtime to the nanosecond, before 1970 too", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("f")));
      for (const ns of ["1700000000123456789", "-1", "0", "-1500000000999999999", "1"]) {
        const time = parseNs(ns);
        if (!time) throw new Error(ns);
        const set = ok(await vfs.utimes("/f", time)).stat;
        expect(set.mtimeNs).toBe(ns);
        expect(ok(vfs.stat("/f")).stat.mtimeNs).toBe(ns);
        expect(nsText(time)).toBe(ns);
      }
      expect(parseNs("-1")).toEqual({ ms: -1, nsec: 999_999 });
      expect(ok(vfs.stat("/f")).stat.mtime).toBe("1970-01-01T00:00:00.000Z");
    }));

  it("changes only what is set: chmod, chown, link and rename keep mtime; a write makes it now; ctime always moves", () =>
    withVfs(async (vfs) => {
      let now = 1_000;
      const clock = () => now;
      Object.assign(vfs.store, { nowMs: clock });
      ok(await vfs.write("/f", bytes("f")));
      ok(await vfs.utimes("/f", { ms: 5, nsec: 6 }));
      const exact = "5000006";
      now = 2_000;
      ok(await vfs.chmod("/f", 0o600));
      expect(ok(vfs.stat("/f")).stat).toMatchObject({ mtimeNs: exact, ctime: new Date(2_000).toISOString() });
      now = 3_000;
      ok(await vfs.chown("/f", { uid: 0 }));
      ok(await vfs.link("/f", "/g"));
      ok(await vfs.move("/g", "/h"));
      expect(ok(vfs.stat("/h")).stat).toMatchObject({ mtimeNs: exact, mode: 0o600, uid: 0 });
      now = 4_000;
      ok(await vfs.utimes("/f", "now"));
      expect(ok(vfs.stat("/f")).stat.mtimeNs).toBe("4000000000");
      ok(await vfs.utimes("/f", { ms: 5, nsec: 6 }));
      now = 5_000;
      ok(await vfs.write("/h", bytes("changed")));
      expect(ok(vfs.stat("/f")).stat).toMatchObject({ mtimeNs: "5000000000", mode: 0o600, uid: 0 });
      expect(await vfs.utimes("/f", { ms: 1, nsec: 1_000_000 })).toMatchObject({ ok: false, code: "EINVAL" });
    }));

  it("sets a symlink's own time with follow: false", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("f")));
      ok(await vfs.symlink("f", "/l"));
      ok(await vfs.utimes("/l", { ms: 42, nsec: 1 }, { follow: false }));
      expect(ok(vfs.lstat("/l")).stat.mtimeNs).toBe("42000001");
      expect(ok(vfs.stat("/f")).stat.mtimeNs).not.toBe("42000001");
    }));
});
