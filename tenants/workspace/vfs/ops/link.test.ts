import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../../limits.ts";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("link (hard links)", () => {
  it("counts names, shares content and metadata, and frees the inode only with its last name", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a", bytes("one")));
      expect(await vfs.link("/a", "/dir/b")).toMatchObject({ ok: false, code: "ENOENT" });
      ok(await vfs.mkdir("/dir"));
      const b = ok(await vfs.link("/a", "/dir/b")).stat;
      const a = ok(vfs.stat("/a")).stat;
      expect(b).toMatchObject({ path: "/dir/b", nlink: 2, ino: a.ino, etag: a.etag, size: 3 });
      expect(a.nlink).toBe(2);
      // Bytes and files count once per inode.
      expect(vfs.counters()).toEqual({ sizeBytes: 3, fileCount: 1 });

      ok(await vfs.write("/dir/b", bytes("two!")));
      expect(await readText(vfs, "/a")).toBe("two!");
      ok(await vfs.chmod("/a", 0o600));
      expect(ok(vfs.stat("/dir/b")).stat.mode).toBe(0o600);
      expect(vfs.counters()).toEqual({ sizeBytes: 4, fileCount: 1 });

      ok(await vfs.remove("/a"));
      expect(await readText(vfs, "/dir/b")).toBe("two!");
      expect(ok(vfs.stat("/dir/b")).stat.nlink).toBe(1);
      expect(vfs.counters()).toEqual({ sizeBytes: 4, fileCount: 1 });
      ok(await vfs.remove("/dir/b"));
      expect(vfs.counters()).toEqual({ sizeBytes: 0, fileCount: 0 });
    }));

  it("refuses directories (EPERM), existing names (EEXIST) and missing files (ENOENT)", () =>
    withVfs(async (vfs) => {
      ok(await vfs.mkdir("/d"));
      ok(await vfs.write("/f", bytes("f")));
      expect(await vfs.link("/d", "/d2")).toMatchObject({ ok: false, code: "EPERM" });
      expect(await vfs.link("/", "/root2")).toMatchObject({ ok: false, code: "EPERM" });
      expect(await vfs.link("/f", "/d")).toMatchObject({ ok: false, code: "EEXIST" });
      expect(await vfs.link("/f", "/f")).toMatchObject({ ok: false, code: "EEXIST" });
      expect(await vfs.link("/none", "/g")).toMatchObject({ ok: false, code: "ENOENT" });
      expect(ok(vfs.stat("/f")).stat.nlink).toBe(1);
    }));

  it("links a symlink itself, not what it points at, as link(2) on Linux", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/target", bytes("t")));
      ok(await vfs.symlink("target", "/l"));
      ok(await vfs.link("/l", "/l2"));
      expect(ok(vfs.lstat("/l2")).stat).toMatchObject({ type: "symlink", target: "target", nlink: 2 });
      expect(ok(vfs.stat("/target")).stat.nlink).toBe(1);
    }));

  it("keeps a name alive when a directory holding its other name is removed, and when replaced by rename", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/tree/sub/f", bytes("kept")));
      ok(await vfs.link("/tree/sub/f", "/outside"));
      ok(await vfs.link("/tree/sub/f", "/tree/twin"));
      expect(ok(vfs.stat("/outside")).stat.nlink).toBe(3);
      ok(await vfs.remove("/tree", { recursive: true }));
      expect(await readText(vfs, "/outside")).toBe("kept");
      expect(ok(vfs.stat("/outside")).stat.nlink).toBe(1);

      ok(await vfs.link("/outside", "/other"));
      ok(await vfs.write("/new", bytes("new")));
      ok(await vfs.move("/new", "/other"));
      expect(await readText(vfs, "/outside")).toBe("kept");
      expect(ok(vfs.stat("/outside")).stat.nlink).toBe(1);
      expect(vfs.counters()).toEqual({ sizeBytes: 7, fileCount: 2 });
    }));

  it("renaming one name onto another of the same inode changes nothing (POSIX rename)", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a", bytes("a")));
      ok(await vfs.link("/a", "/b"));
      const revision = vfs.revision();
      ok(await vfs.move("/a", "/b"));
      expect(ok(vfs.stat("/a")).stat.nlink).toBe(2);
      expect(ok(vfs.stat("/b")).stat.nlink).toBe(2);
      expect(vfs.revision()).toBe(revision);
      expect(await vfs.copy("/a", "/b", { overwrite: true })).toMatchObject({ ok: false, code: "EINVAL" });
    }));

  it("copies a tree holding two names of one file as two files, as cp -r does", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/src/a", bytes("x")));
      ok(await vfs.link("/src/a", "/src/b"));
      ok(await vfs.copy("/src", "/dst"));
      const [a, b] = [ok(vfs.stat("/dst/a")).stat, ok(vfs.stat("/dst/b")).stat];
      expect([a.nlink, b.nlink]).toEqual([1, 1]);
      expect(a.ino).not.toBe(b.ino);
      expect(vfs.counters()).toEqual({ sizeBytes: 3, fileCount: 3 });
    }));

  it("lists every name of the inode in the change log when its content or metadata changes", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/x/a", bytes("1")));
      ok(await vfs.link("/x/a", "/y"));
      const from = vfs.revision();
      ok(await vfs.write("/y", bytes("2")));
      ok(await vfs.truncate("/x/a", 0));
      ok(await vfs.chmod("/y", 0o600));
      ok(await vfs.chown("/y", { uid: 0 }));
      ok(await vfs.utimes("/y", { ms: 1, nsec: 2 }));
      const log = vfs.changesSince(from).changes.map((c) => [c.op, c.paths]);
      expect(log).toEqual([
        ["write", ["/x/a", "/y"]],
        ["truncate", ["/x/a", "/y"]],
        ["chmod", ["/x/a", "/y"]],
        ["chown", ["/x/a", "/y"]],
        ["utimes", ["/x/a", "/y"]],
      ]);
      ok(await vfs.link("/y", "/z"));
      expect(vfs.changesSince(vfs.revision() - 1).changes[0]).toMatchObject({ op: "link", paths: ["/z"] });
    }));

  it("directories count 2 + their subdirectories", () =>
    withVfs(async (vfs) => {
      expect(ok(vfs.stat("/")).stat.nlink).toBe(2);
      ok(await vfs.mkdir("/d/e/f", { recursive: true }));
      ok(await vfs.mkdir("/d/g"));
      ok(await vfs.write("/d/file", bytes("")));
      expect(ok(vfs.stat("/")).stat.nlink).toBe(3);
      expect(ok(vfs.stat("/d")).stat.nlink).toBe(4);
      ok(await vfs.move("/d/g", "/g"));
      expect([ok(vfs.stat("/")).stat.nlink, ok(vfs.stat("/d")).stat.nlink]).toEqual([4, 3]);
      ok(await vfs.remove("/d", { recursive: true }));
      expect(ok(vfs.stat("/")).stat.nlink).toBe(3);
    }));

  it("stops at the link limit with EMLINK", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("f")));
      vfs.store.sql.exec(
        "UPDATE inodes SET nlink = ? WHERE ino = ?",
        workspaceLimits.linksPerInodeMax,
        ok(vfs.stat("/f")).stat.ino,
      );
      vfs.store.forget();
      expect(await vfs.link("/f", "/g")).toMatchObject({ ok: false, code: "EMLINK" });
    }));

  it("keeps shared chunks through garbage collection until the last name goes", () =>
    withVfs(async (vfs) => {
      const big = new Uint8Array(3 * workspaceLimits.chunkBytes).map((_, i) => i % 251);
      ok(await vfs.write("/big", big));
      ok(await vfs.link("/big", "/alias"));
      ok(await vfs.remove("/big"));
      while ((await vfs.maintain()).remaining);
      const read = ok(await vfs.readBytes("/alias")).bytes;
      expect(read.byteLength).toBe(big.byteLength);
      expect(read.every((value, i) => value === big[i])).toBe(true);
      expect(vfs.stats().chunkCount).toBe(3);
      ok(await vfs.remove("/alias"));
      while ((await vfs.maintain()).remaining);
      expect(vfs.stats().chunkCount).toBe(0);
    }));
});
