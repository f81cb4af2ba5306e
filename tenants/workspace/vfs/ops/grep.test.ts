import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "../test/withVfs.ts";

describe("grep", () => {
  it("finds matching lines with globs, case folding and a match cap", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/src/a.ts", bytes("const TODO = 1;\nok\n// todo: more\n")));
      ok(await vfs.write("/src/b.js", bytes("todo in js\n")));
      ok(await vfs.write("/src/skip/c.ts", bytes("todo skipped\n")));
      ok(await vfs.write("/bin.dat", new Uint8Array([116, 111, 100, 111, 0, 1])));
      const all = ok(await vfs.grep("todo", "/", { ignoreCase: true }));
      expect(all.matches.map((m) => `${m.path}:${m.line}`)).toEqual([
        "/src/a.ts:1",
        "/src/a.ts:3",
        "/src/b.js:1",
        "/src/skip/c.ts:1",
      ]);
      const ts = ok(await vfs.grep("todo", "/src", { include: ["**/*.ts"], exclude: ["skip/**"] }));
      expect(ts.matches).toEqual([{ path: "/src/a.ts", line: 3, text: "// todo: more" }]);
      const capped = ok(await vfs.grep("o", "/src", { maxMatches: 2 }));
      expect(capped.matches).toHaveLength(2);
      expect(capped.truncated).toBe(true);
    }));

  it("refuses a bad regular expression and a missing path", () =>
    withVfs(async (vfs) => {
      expect(await vfs.grep("(", "/")).toMatchObject({ ok: false, code: "EINVAL" });
      expect(await vfs.grep("x", "/missing")).toMatchObject({ ok: false, code: "ENOENT" });
    }));
});

describe("grep regular expressions", () => {
  // On a backtracking engine each of these takes about 2^40 steps on one such line: the test
  // would never end. A linear-time engine answers as fast as for any other pattern.
  it("answers catastrophic patterns in linear time", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a.txt", bytes(`${"a".repeat(40)}!\n`.repeat(200))));
      for (const pattern of ["(a+)+$", "(a|a)*b", "(a|aa)+$", "^(([a-z])+.)+[A-Z]([a-z])+$"]) {
        expect(ok(await vfs.grep(pattern, "/")).matches).toEqual([]);
      }
      expect(ok(await vfs.grep("(a+)+!$", "/")).matches).toHaveLength(200);
    }));

  it("uses RE2 syntax: no backreferences or lookaround", () =>
    withVfs(async (vfs) => {
      expect(await vfs.grep("(a)\\1", "/")).toMatchObject({ ok: false, code: "EINVAL" });
      expect(await vfs.grep("a(?=b)", "/")).toMatchObject({ ok: false, code: "EINVAL" });
    }));
});

describe("grep streaming", () => {
  it("finds lines across chunk boundaries and numbers them exactly", () =>
    withVfs(async (vfs) => {
      const filler = "x".repeat(1000);
      const lines = Array.from({ length: 2000 }, (_, i) => (i % 500 === 499 ? `needle ${i + 1}` : filler));
      ok(await vfs.write("/big.txt", bytes(`${lines.join("\n")}\n`)));
      const found = ok(await vfs.grep("^needle", "/big.txt"));
      expect(found.matches.map((m) => m.line)).toEqual([500, 1000, 1500, 2000]);
      expect(found.matches.map((m) => m.text)).toEqual(["needle 500", "needle 1000", "needle 1500", "needle 2000"]);
    }));

  it("matches an over-long line on its first part and keeps counting lines after it", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/long.txt", bytes(`start${"y".repeat(2_000_000)}\nafter\n`)));
      const found = ok(await vfs.grep("start|after", "/long.txt"));
      expect(found.matches.map((m) => [m.line, m.text.slice(0, 5)])).toEqual([
        [1, "start"],
        [2, "after"],
      ]);
    }));
});
