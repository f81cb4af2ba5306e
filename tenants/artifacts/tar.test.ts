import { parseTar } from "nanotar";
import { describe, expect, it } from "vitest";
import { type TarEntry, tarStream } from "./tar.ts";

const entry = (path: string, bytes: Uint8Array, size = bytes.length): TarEntry => ({
  path,
  size,
  open: async () => new Response(bytes).body as ReadableStream<Uint8Array>,
});

async function archive(entries: TarEntry[]): Promise<Uint8Array> {
  return new Uint8Array(await new Response(tarStream(entries, 1_700_000_000)).arrayBuffer());
}

describe("tarStream", () => {
  it("writes files an independent reader (nanotar) reads back byte for byte", async () => {
    const big = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31 + 7) & 255);
    const tar = await archive([entry("a.txt", new TextEncoder().encode("hello")), entry("dir/big.bin", big)]);
    expect(tar.length % 512).toBe(0);
    const files = parseTar(tar);
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ["a.txt", 5],
      ["dir/big.bin", 70_000],
    ]);
    expect(files[0]?.text).toBe("hello");
    expect(files[1]?.data).toEqual(big);
    expect(files[1]?.attrs?.mtime).toBe(1_700_000_000);
  });

  it("puts long and non-ASCII names in pax records", async () => {
    const long = `${"d/".repeat(80)}file.txt`;
    const files = parseTar(await archive([entry(long, new Uint8Array([1])), entry("héllo.txt", new Uint8Array([2]))]));
    expect(files.map((f) => f.name)).toEqual([long, "héllo.txt"]);
  });

  it("fails the stream when a file is not the size it was recorded with", async () => {
    await expect(archive([entry("short.txt", new Uint8Array(3), 4)])).rejects.toThrow(/3 bytes, not its recorded 4/);
    await expect(archive([entry("long.txt", new Uint8Array(5), 4)])).rejects.toThrow(/longer than its recorded 4/);
  });
});
