import { describe, expect, it } from "vitest";
import { ConfinedVfs } from "./ConfinedVfs.ts";
import { bytes, ok, readText, withVfs } from "./test/withVfs.ts";
import type { Vfs } from "./Vfs.ts";

/** /src/a.txt, /src/sub/, /secret/key.txt, and the view of a credential confined to /src. */
async function seeded(vfs: Vfs) {
  ok(await vfs.write("/src/a.txt", bytes("a")));
  ok(await vfs.mkdir("/src/sub"));
  ok(await vfs.write("/secret/key.txt", bytes("hunter2")));
  return new ConfinedVfs(vfs, "/src");
}

const refused = (result: { ok: boolean; message?: string }, message?: string | RegExp) => {
  expect(result).toMatchObject({ ok: false, code: "EACCES" });
  if (message) expect(result.message).toMatch(message);
};

describe("ConfinedVfs", () => {
  it("works at and under the prefix and refuses everything else, naming the prefix", () =>
    withVfs(async (vfs) => {
      const src = await seeded(vfs);
      expect(await readText(src, "/src/a.txt")).toBe("a");
      ok(await src.write("/src/sub/b.txt", bytes("b")));
      ok(src.list("/src"));
      ok(await src.remove("/src", { recursive: true }));
      refused(src.read("/secret/key.txt"), "/secret/key.txt is outside this token's path prefix /src");
      refused(src.read("/srcx/a.txt"));
      refused(await src.write("/other.txt", bytes("x")));
      refused(await src.move("/secret/key.txt", "/src/key.txt"));
      refused(await src.copy("/secret/key.txt", "/src/key.txt"));
      refused(await src.mkdir("/made"));
      refused(await src.chmod("/secret/key.txt", 0o600));
      refused(await src.truncate("/secret/key.txt", 0));
      refused(await src.grep("hunter", "/"));
      refused(src.find("/"));
      expect(await readText(vfs, "/secret/key.txt")).toBe("hunter2");
    }));

  it("lets the directories above the prefix be stat'ed but not listed", () =>
    withVfs(async (vfs) => {
      const deep = new ConfinedVfs(vfs, "/src/sub");
      ok(await vfs.mkdir("/src/sub", { recursive: true }));
      expect(ok(deep.stat("/")).stat.type).toBe("dir");
      expect(ok(deep.lstat("/src")).stat.type).toBe("dir");
      refused(deep.list("/src"));
      refused(deep.stat("/secret"));
    }));

  it("refuses every path that leads outside through a symlink, wherever the link is", () =>
    withVfs(async (vfs) => {
      const src = await seeded(vfs);
      ok(await vfs.symlink("/secret", "/src/out"));
      ok(await vfs.symlink("/secret/gone.txt", "/src/dangling"));
      refused(src.read("/src/out/key.txt"), "/src/out/key.txt leads to /secret/key.txt");
      refused(src.list("/src/out"));
      refused(src.stat("/src/out"));
      refused(await src.write("/src/out/new.txt", bytes("x")));
      refused(await src.write("/src/dangling", bytes("x")));
      refused(await src.mkdir("/src/out/a/b", { recursive: true }));
      refused(await src.copy("/src/out/key.txt", "/src/copied.txt"));
      // The links themselves are inside: they can be looked at, moved and removed.
      expect(ok(src.lstat("/src/out")).stat.type).toBe("symlink");
      expect(ok(src.readlink("/src/out")).target).toBe("/secret");
      ok(await src.move("/src/out", "/src/moved"));
      ok(await src.remove("/src/moved"));
      expect(ok(vfs.list("/secret")).entries.map((e) => e.name)).toEqual(["key.txt"]);
    }));

  it("refuses a new link whose target is outside, relative or absolute", () =>
    withVfs(async (vfs) => {
      const src = await seeded(vfs);
      refused(await src.symlink("../secret", "/src/up"), "the link target ../secret is /secret");
      refused(await src.symlink("/secret/key.txt", "/src/abs"));
      refused(await src.symlink("a.txt", "/other-link"));
      ok(await vfs.symlink("/secret", "/src/out"));
      refused(await src.symlink("out/key.txt", "/src/through"), "leads to /secret/key.txt");
      ok(await src.symlink("a.txt", "/src/fine"));
      expect(await readText(src, "/src/fine")).toBe("a");
    }));

  it("checks a mutation under the lock, after the mutations queued before it", () =>
    withVfs(async (vfs) => {
      const src = await seeded(vfs);
      // Fine where it is (/src/deep/up -> /src/s); once moved to /src/up it points at /s.
      ok(await vfs.mkdir("/src/deep"));
      ok(await vfs.mkdir("/src/s"));
      ok(await vfs.mkdir("/s"));
      ok(await vfs.symlink("../s", "/src/deep/up"));
      const moved = src.move("/src/deep/up", "/src/up");
      const wrote = src.write("/src/up/new.txt", bytes("x"));
      ok(await moved);
      refused(await wrote, "leads to /s/new.txt");
      expect(ok(vfs.list("/s")).entries).toEqual([]);
    }));

  it("checks each batch step after the steps before it, and applies none when one is refused", () =>
    withVfs(async (vfs) => {
      const src = await seeded(vfs);
      ok(await vfs.mkdir("/src/deep"));
      ok(await vfs.mkdir("/s"));
      ok(await vfs.symlink("../s", "/src/deep/up"));
      const result = await src.batch([
        { op: "move", from: "/src/deep/up", to: "/src/up" },
        { op: "write", path: "/src/up/new.txt", content: bytes("x") },
      ]);
      expect(result).toMatchObject({ ok: false, code: "EACCES", index: 1 });
      expect(ok(vfs.lstat("/src/deep/up")).stat.type).toBe("symlink");
      expect(ok(vfs.list("/s")).entries).toEqual([]);
    }));
});
