import { describe, expect, it } from "vitest";
import { normalizePath } from "./paths.ts";

describe("normalizePath", () => {
  it.each([
    ["src/main.ts", "/src/main.ts"],
    ["/src/main.ts", "/src/main.ts"],
    ["/src/./main.ts", "/src/main.ts"],
    ["/src/", "/src"],
    ["/", "/"],
    ["", "/"],
    ["/名前/ファイル.txt", "/名前/ファイル.txt"],
    ["/with space/and'quote\"", "/with space/and'quote\""],
  ])("normalises %j to %j", (raw, expected) => {
    expect(normalizePath(raw)).toEqual({ ok: true, path: expected });
  });

  it.each([
    ["../etc/passwd", "EINVAL", "`..`"],
    ["/a/../../b", "EINVAL", "`..`"],
    ["/a/..", "EINVAL", "`..`"],
    ["/a//b", "EINVAL", "empty segment"],
    ["//", "EINVAL", "empty segment"],
    ["/a\u0000b", "EINVAL", "control character"],
    ["/a\nb", "EINVAL", "control character"],
    ["/a\u007fb", "EINVAL", "control character"],
    ["/a\ud800b", "EINVAL", "well-formed Unicode"],
    ["/\udfff", "EINVAL", "well-formed Unicode"],
    [`/${"x".repeat(256)}`, "ENAMETOOLONG", "255"],
    [`/${"é".repeat(128)}`, "ENAMETOOLONG", "255"],
    [`/${"文".repeat(85)}x`, "ENAMETOOLONG", "255"],
    [`/${"🙂".repeat(64)}`, "ENAMETOOLONG", "255"],
    [`/${"a/".repeat(2048)}b`, "ENAMETOOLONG", "4096"],
  ])("refuses %j with %s", (raw, code, why) => {
    const result = normalizePath(raw);
    expect(result).toMatchObject({ ok: false, code });
    expect(result.ok ? "" : result.detail).toContain(why);
  });

  it("takes a name of exactly 255 bytes of UTF-8, however its characters are made", () => {
    for (const name of ["x".repeat(255), `${"é".repeat(127)}x`, "文".repeat(85), `${"🙂".repeat(63)}xyz`]) {
      expect(new TextEncoder().encode(name).length).toBe(255);
      expect(normalizePath(`/d/${name}`)).toEqual({ ok: true, path: `/d/${name}` });
    }
  });

  it("resolves `..` lexically, stopping at the root, only for symlink targets", () => {
    expect(normalizePath("/a/b/../../../c", { allowDotDot: true })).toEqual({ ok: true, path: "/c" });
    expect(normalizePath("/a//b/", { allowDotDot: true })).toEqual({ ok: true, path: "/a/b" });
  });
});
