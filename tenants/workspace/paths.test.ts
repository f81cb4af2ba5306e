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
    [`/${"a/".repeat(2048)}b`, "ENAMETOOLONG", "4096"],
  ])("refuses %j with %s", (raw, code, why) => {
    const result = normalizePath(raw);
    expect(result).toMatchObject({ ok: false, code });
    expect(result.ok ? "" : result.detail).toContain(why);
  });

  it("resolves `..` lexically, stopping at the root, only for symlink targets", () => {
    expect(normalizePath("/a/b/../../../c", { allowDotDot: true })).toEqual({ ok: true, path: "/c" });
    expect(normalizePath("/a//b/", { allowDotDot: true })).toEqual({ ok: true, path: "/a/b" });
  });
});
