import { describe, expect, it } from "vitest";
import { artifactId, canonicalManifest, compareUtf8, manifestDigest } from "./manifest.ts";

const b = { path: "b.txt", size: 1, sha256: "bb".repeat(32) };
const az = { path: "a/z.txt", size: 2, sha256: "aa".repeat(32) };
const files = [b, az];

describe("the canonical manifest", () => {
  it("is a version line then sorted `<sha256> <size> <path>` lines", () => {
    expect(canonicalManifest(files)).toBe(
      `cubicle-artifact-v1\n${"aa".repeat(32)} 2 a/z.txt\n${"bb".repeat(32)} 1 b.txt\n`,
    );
  });

  it("gives the same digest whatever order the files were found in", async () => {
    expect(await manifestDigest(files)).toBe(await manifestDigest([...files].reverse()));
    expect(await manifestDigest(files)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("gives another digest when a path, a size or a byte changes", async () => {
    const base = await manifestDigest(files);
    expect(await manifestDigest([{ ...b, path: "c.txt" }, az])).not.toBe(base);
    expect(await manifestDigest([{ ...b, size: 9 }, az])).not.toBe(base);
    expect(await manifestDigest([{ ...b, sha256: "cc".repeat(32) }, az])).not.toBe(base);
  });

  it("sorts by UTF-8 bytes, not UTF-16 code units", () => {
    // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8, after it in UTF-16.
    expect(compareUtf8("\uff21", "\u{1f600}")).toBeLessThan(0);
    expect("\uff21" < "\u{1f600}").toBe(false);
  });
});

describe("artifact ids", () => {
  it("are stable per tenant and digest, and differ between tenants", async () => {
    const digest = await manifestDigest(files);
    const id = await artifactId("ten_a", digest);
    expect(id).toMatch(/^art_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(await artifactId("ten_a", digest)).toBe(id);
    expect(await artifactId("ten_b", digest)).not.toBe(id);
  });
});
