import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "./limits.ts";
import { pathPatterns } from "./pathPatterns.ts";
import { normalizePath } from "./paths.ts";

/** Paths made of the characters the rules are about: separators, dots, controls, multi-byte names. */
const pathText = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.string({
      unit: fc.constantFrom("/", ".", "a", "b", "é", "中", "😀", "\u0000", "\n", "\u007f", " "),
      maxLength: 24,
    }),
  },
  {
    weight: 10,
    arbitrary: fc
      .array(fc.constantFrom("a", ".", "..", "...", ".a", "..a", "", "x".repeat(255), "é".repeat(128), "\t"), {
        maxLength: 5,
      })
      .map((segments) => segments.join("/")),
  },
  // At the length limit: rare, since normalizePath takes milliseconds over a path this long.
  { weight: 1, arbitrary: fc.constantFrom("a/".repeat(2048), `/${"a/".repeat(2047)}b`) },
);

const compiled = new Map<string, RegExp>();
const matches = (pattern: string, path: string) => {
  const regex = compiled.get(pattern) ?? new RegExp(pattern);
  compiled.set(pattern, regex);
  return regex.test(path);
};
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
/** The one rule the patterns leave out: a name's length in UTF-8 bytes. */
const nameTooLongInBytes = (path: string) =>
  path
    .split("/")
    .some((name) => name.length <= workspaceLimits.nameLengthMax && utf8Bytes(name) > workspaceLimits.nameLengthMax);

describe("path patterns agree with normalizePath", () => {
  it("`any` accepts exactly the paths normalizePath accepts (within the length limit)", () => {
    fc.assert(
      fc.property(pathText, (path) => {
        const accepted = normalizePath(path).ok;
        const documented = matches(pathPatterns.any, path) && path.length <= workspaceLimits.pathLengthMax;
        if (!accepted && documented) expect(nameTooLongInBytes(path)).toBe(true);
        else expect(documented).toBe(accepted);
      }),
      { numRuns: 2_000 },
    );
  });

  it("`belowRoot` accepts exactly the accepted paths that do not name the root", () => {
    fc.assert(
      fc.property(pathText, (path) => {
        const result = normalizePath(path);
        const accepted = result.ok && result.path !== "/";
        const documented = matches(pathPatterns.belowRoot, path) && path.length <= workspaceLimits.pathLengthMax;
        if (!accepted && documented) expect(nameTooLongInBytes(path)).toBe(true);
        else expect(documented).toBe(accepted);
      }),
      { numRuns: 2_000 },
    );
  });

  it("`execCwd` accepts exactly the paths that normalise to /workspace, /tmp or below them", () => {
    const cwdText = fc.oneof(
      pathText,
      pathText.map((p) => `/workspace/${p}`),
      pathText.map((p) => `tmp/${p}`),
    );
    fc.assert(
      fc.property(cwdText, (path) => {
        const result = normalizePath(path);
        const accepted = result.ok && /^\/(workspace|tmp)(\/|$)/.test(result.path);
        const documented = matches(pathPatterns.execCwd, path) && path.length <= workspaceLimits.pathLengthMax;
        if (!accepted && documented) expect(nameTooLongInBytes(path)).toBe(true);
        else expect(documented).toBe(accepted);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ["src/main.ts", true, true],
    ["/", true, false],
    ["", true, false],
    ["./.", true, false],
    ["./a", true, true],
    ["/a//b", false, false],
    ["/a/../b", false, false],
    ["/.../b", true, true],
    ["/a\nb", false, false],
  ])("reads %j as any=%s belowRoot=%s", (path, any, belowRoot) => {
    expect([matches(pathPatterns.any, path), matches(pathPatterns.belowRoot, path)]).toEqual([any, belowRoot]);
  });
});
