import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../../limits.ts";
import { ok, withVfs } from "../test/withVfs.ts";

describe("read", () => {
  it("reads byte ranges that span chunk boundaries", () =>
    withVfs(async (vfs) => {
      const size = workspaceLimits.chunkBytes * 2 + 100;
      const data = new Uint8Array(size);
      for (let i = 0; i < size; i++) data[i] = (i * 7) % 251;
      ok(await vfs.write("/big", data));
      const start = workspaceLimits.chunkBytes - 5;
      const read = ok(vfs.read("/big", { offset: start, length: workspaceLimits.chunkBytes + 10 }));
      const got = new Uint8Array(await new Response(read.body).arrayBuffer());
      expect(got).toEqual(data.subarray(start, start + workspaceLimits.chunkBytes + 10));
      const tail = ok(vfs.read("/big", { offset: size - 3 }));
      expect(new Uint8Array(await new Response(tail.body).arrayBuffer())).toEqual(data.subarray(size - 3));
    }));

  it("refuses directories, missing files and ranges past the end", () =>
    withVfs(async (vfs) => {
      ok(await vfs.mkdir("/d"));
      expect(vfs.read("/d")).toMatchObject({ ok: false, code: "EISDIR" });
      expect(vfs.read("/missing")).toMatchObject({ ok: false, code: "ENOENT" });
      ok(await vfs.write("/f", new Uint8Array(10)));
      expect(vfs.read("/f", { offset: 10 })).toMatchObject({ ok: false, code: "EINVAL" });
    }));

  it("reads an empty file as zero bytes", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/empty", new Uint8Array(0)));
      const read = ok(vfs.read("/empty"));
      expect((await new Response(read.body).arrayBuffer()).byteLength).toBe(0);
    }));
});

describe("read streaming", () => {
  it("reads a chunk from storage only when the consumer asks for it", () =>
    withVfs(async (vfs) => {
      const chunks = 8;
      ok(await vfs.write("/big", new Uint8Array(workspaceLimits.chunkBytes * chunks).fill(3)));
      const blob = vfs.store.blob.bind(vfs.store);
      let fetched = 0;
      vfs.store.blob = (hash: string) => {
        fetched++;
        return blob(hash);
      };
      try {
        const reader = ok(vfs.read("/big")).body.getReader();
        for (let consumed = 1; consumed <= chunks; consumed++) {
          await reader.read();
          await new Promise((r) => setTimeout(r, 1));
          // At most the one chunk being delivered is in memory ahead of the consumer.
          expect(fetched).toBeLessThanOrEqual(consumed + 1);
        }
        expect((await reader.read()).done).toBe(true);
      } finally {
        vfs.store.blob = blob;
      }
    }));
});
