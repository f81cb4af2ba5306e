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
