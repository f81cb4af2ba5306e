import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../../limits.ts";
import { bytes, ok, readText, withVfs } from "../test/withVfs.ts";

describe("truncate", () => {
  it("shrinks and extends with zeros, keeping counters exact", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("hello world")));
      ok(await vfs.truncate("/f", 5));
      expect(await readText(vfs, "/f")).toBe("hello");
      ok(await vfs.truncate("/f", 8));
      expect(ok(await vfs.readBytes("/f")).bytes).toEqual(new Uint8Array([104, 101, 108, 108, 111, 0, 0, 0]));
      expect(vfs.counters().sizeBytes).toBe(8);
    }));

  it("extends past several chunks, storing the zero chunk once", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/f", bytes("x")));
      const size = workspaceLimits.chunkBytes * 4 + 1;
      const before = vfs.stats().chunkCount;
      ok(await vfs.truncate("/f", size));
      const read = ok(await vfs.readBytes("/f")).bytes;
      expect(read.byteLength).toBe(size);
      expect(read[0]).toBe(120);
      expect(read.subarray(1).every((b) => b === 0)).toBe(true);
      // First chunk (x + zeros), one shared zero chunk, and the 1-byte tail.
      expect(vfs.stats().chunkCount - before).toBeLessThanOrEqual(3);
    }));

  it("refuses directories and negative sizes", () =>
    withVfs(async (vfs) => {
      ok(await vfs.mkdir("/d"));
      expect(await vfs.truncate("/d", 0)).toMatchObject({ ok: false, code: "EISDIR" });
      ok(await vfs.write("/f", bytes("x")));
      expect(await vfs.truncate("/f", -1)).toMatchObject({ ok: false, code: "EINVAL" });
    }));
});
