import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bytes, ok } from "../vfs/test/withVfs.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { WorkspaceFsTarget } from "./WorkspaceFsTarget.ts";

/** The file capability a run confined to /src gets, over /src/a.txt and /other.txt. */
function confinedTarget<T>(fn: (fs: WorkspaceFsTarget) => Promise<T>): Promise<T> {
  const stub = env.WORKSPACE.getByName(`test-${crypto.randomUUID()}`);
  return runInDurableObject(stub, async (instance: WorkspaceDO) => {
    ok(await instance.vfs.write("/src/a.txt", bytes("a")));
    ok(await instance.vfs.write("/other.txt", bytes("other")));
    return fn(new WorkspaceFsTarget(instance.vfs, { pathPrefix: "/src" }));
  });
}

const denied = { ok: false, code: "EACCES", message: expect.stringContaining("path prefix /src") };

describe("WorkspaceFsTarget confined to a path prefix", () => {
  it("answers EACCES naming the prefix for every path outside, on both ends of a move or copy", () =>
    confinedTarget(async (fs) => {
      expect(await fs.readFile("/src/a.txt")).toMatchObject({ ok: true });
      expect(await fs.readFile("/other.txt")).toEqual(denied);
      expect(await fs.writeFile("/other.txt", bytes("x"))).toEqual(denied);
      expect(await fs.writeFile("/src/a.txt", bytes("x"), { append: true })).toEqual({ ok: true });
      expect(await fs.mkdir("/made")).toEqual(denied);
      expect(await fs.rm("/other.txt", { force: true })).toEqual(denied);
      expect(await fs.mv("/src/a.txt", "/a.txt")).toEqual(denied);
      expect(await fs.mv("/other.txt", "/src/other.txt")).toEqual(denied);
      expect(await fs.cp("/other.txt", "/src/copy.txt")).toEqual(denied);
      expect(await fs.cp("/src/a.txt", "/copy.txt")).toEqual(denied);
      expect(await fs.symlink("/other.txt", "/src/link")).toEqual(denied);
      expect(await fs.symlink("../other.txt", "/src/link")).toEqual(denied);
      expect(await fs.chmod("/other.txt", 0o600)).toEqual(denied);
      expect(await fs.truncate("/other.txt", 0)).toEqual(denied);
      expect(await fs.readlink("/other.txt")).toEqual(denied);
    }));

  it("lets a run walk down to the prefix: stat of the root works, listing it does not", () =>
    confinedTarget(async (fs) => {
      expect(await fs.stat("/")).toMatchObject({ ok: true, stat: { type: "dir" } });
      expect(await fs.lstat("/src")).toMatchObject({ ok: true, stat: { type: "dir" } });
      expect(await fs.readdir("/")).toEqual(denied);
      expect(await fs.stat("/other.txt")).toEqual(denied);
      expect(await fs.readdir("/src")).toEqual({ ok: true, entries: [{ name: "a.txt", type: "file" }] });
    }));
});
