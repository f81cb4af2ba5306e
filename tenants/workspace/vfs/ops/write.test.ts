import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../../limits.ts";
import { bytes, ok, readText, streamOf, withVfs } from "../test/withVfs.ts";

describe("write", () => {
  it("creates parents, overwrites, appends and refuses exclusive creation over a file", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a/b/c.txt", bytes("one")));
      expect(ok(vfs.stat("/a/b")).stat.type).toBe("dir");
      ok(await vfs.write("/a/b/c.txt", bytes("two")));
      ok(await vfs.write("/a/b/c.txt", streamOf(bytes("+"), bytes("three")), { mode: "append" }));
      expect(await readText(vfs, "/a/b/c.txt")).toBe("two+three");
      expect(await vfs.write("/a/b/c.txt", bytes("x"), { mode: "exclusive" })).toMatchObject({
        ok: false,
        code: "EEXIST",
      });
      ok(await vfs.write("/a/new.txt", bytes("x"), { mode: "exclusive" }));
      expect(await vfs.write("/a/b", bytes("x"))).toMatchObject({ ok: false, code: "EISDIR" });
      expect(await vfs.write("/a/b/c.txt/d", bytes("x"))).toMatchObject({ ok: false, code: "ENOTDIR" });
      expect(await vfs.write("/nope/x", bytes("x"), { parents: false })).toMatchObject({ ok: false, code: "ENOENT" });
    }));

  it("appends across chunk boundaries byte-exactly", () =>
    withVfs(async (vfs) => {
      const chunk = workspaceLimits.chunkBytes;
      const first = new Uint8Array(chunk - 3).fill(1);
      const second = new Uint8Array(chunk + 10).fill(2);
      ok(await vfs.write("/f", first));
      ok(await vfs.write("/f", second, { mode: "append" }));
      const read = ok(await vfs.readBytes("/f")).bytes;
      expect(read.byteLength).toBe(first.byteLength + second.byteLength);
      expect(read[chunk - 4]).toBe(1);
      expect(read[chunk - 3]).toBe(2);
      expect(read.at(-1)).toBe(2);
      expect(ok(vfs.stat("/f")).stat.size).toBe(read.byteLength);
    }));

  it("honours If-Match and If-None-Match", () =>
    withVfs(async (vfs) => {
      const { stat } = ok(await vfs.write("/f", bytes("v1")));
      expect(await vfs.write("/f", bytes("v2"), { ifMatch: '"stale"' })).toMatchObject({
        ok: false,
        code: "EPRECONDITION",
      });
      ok(await vfs.write("/f", bytes("v2"), { ifMatch: stat.etag as string }));
      expect(await vfs.write("/f", bytes("v3"), { ifNoneMatch: "*" })).toMatchObject({
        ok: false,
        code: "EPRECONDITION",
      });
      expect(await vfs.write("/g", bytes("v1"), { ifMatch: stat.etag as string })).toMatchObject({
        code: "EPRECONDITION",
      });
      expect(await readText(vfs, "/f")).toBe("v2");
    }));

  it("writes through a symlink to its target", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/real.txt", bytes("a")));
      ok(await vfs.symlink("real.txt", "/link"));
      ok(await vfs.write("/link", bytes("b")));
      expect(await readText(vfs, "/real.txt")).toBe("b");
      expect(ok(vfs.lstat("/link")).stat.type).toBe("symlink");
    }));

  it("keeps sizeBytes and fileCount exact", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a", bytes("12345")));
      ok(await vfs.write("/b/c", bytes("123")));
      ok(await vfs.write("/a", bytes("1")));
      expect(vfs.counters()).toEqual({ sizeBytes: 4, fileCount: 2 });
      ok(await vfs.remove("/b", { recursive: true }));
      expect(vfs.counters()).toEqual({ sizeBytes: 1, fileCount: 1 });
    }));

  it("leaves the old content whole when a stream fails midway", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("intact")));
      const failing = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new Uint8Array(workspaceLimits.chunkBytes).fill(7));
          controller.error(new Error("client went away"));
        },
      });
      await expect(vfs.write("/f", failing)).rejects.toThrow("client went away");
      expect(await readText(vfs, "/f")).toBe("intact");
      expect(vfs.counters()).toEqual({ sizeBytes: 6, fileCount: 1 });
    }));
});

describe("write streaming", () => {
  it("stores each chunk as it arrives instead of collecting the whole body", () =>
    withVfs(async (vfs) => {
      const chunk = workspaceLimits.chunkBytes;
      let storedWhileStreaming = 0;
      let produced = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          // When the producer is asked for part n, parts before it must already be in SQLite.
          storedWhileStreaming = Math.max(storedWhileStreaming, vfs.stats().chunkCount);
          if (produced === 6) return controller.close();
          controller.enqueue(new Uint8Array(chunk).fill(++produced));
        },
      });
      ok(await vfs.write("/streamed", body));
      expect(storedWhileStreaming).toBeGreaterThanOrEqual(5);
      expect(ok(vfs.stat("/streamed")).stat.size).toBe(chunk * 6);
    }));
});
