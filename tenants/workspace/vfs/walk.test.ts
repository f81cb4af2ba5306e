/** walk: every entry below a directory in path order, a page at a time from any `after`. */
import { describe, expect, it } from "vitest";
import { bytes, ok, withVfs } from "./test/withVfs.ts";
import { walk } from "./walk.ts";

/** Names whose order differs from their parents' in the ways paths can: `-` and `.` sort before `/`. */
const names = ["a", "a-b", "a.b", "a0", "b", "A", "é", "z z"];

/** SQLite's order of text (its bytes), which is the walk's. */
const byBytes = (a: string, b: string) => {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
};

describe("walk", () => {
  it("lists a tree in path order, and each page from any point on is the rest of it", () =>
    withVfs(async (vfs) => {
      const made: string[] = [];
      for (const a of names) {
        ok(await vfs.mkdir(`/d/${a}`, { recursive: true }));
        made.push(`/d/${a}`);
        for (const b of names.slice(0, 4)) {
          ok(await vfs.write(`/d/${a}/${b}`, bytes(b)));
          made.push(`/d/${a}/${b}`);
        }
        ok(await vfs.mkdir(`/d/${a}/${a}-/deep`, { recursive: true }));
        made.push(`/d/${a}/${a}-`, `/d/${a}/${a}-/deep`);
      }
      made.push("/d");
      const dir = vfs.store.resolve("/", false);
      if (!dir.ok) throw new Error(dir.message);
      const all = walk(vfs.store, dir.ino, "/").map((e) => e.path);
      expect(all).toEqual([...made].sort(byBytes));
      const froms = ["", ...all, "/d/a-", "/d/a/", "/d/a/a-/deep/x", "/d/zz", "/e"];
      for (const after of froms) {
        const rest = all.filter((p) => byBytes(p, after) > 0);
        for (const limit of [1, 3, 1000]) {
          expect(
            walk(vfs.store, dir.ino, "/", { after, limit }).map((e) => e.path),
            `after ${after}, limit ${limit}`,
          ).toEqual(rest.slice(0, limit));
        }
      }
      // Paging from each page's last path walks the whole tree once.
      const paged: string[] = [];
      for (let after = ""; ; ) {
        const page = walk(vfs.store, dir.ino, "/", { after, limit: 4 }).map((e) => e.path);
        paged.push(...page);
        if (page.length < 4) break;
        after = page.at(-1) as string;
      }
      expect(paged).toEqual(all);
      // Below a directory, paths keep its prefix.
      const d = vfs.store.resolve("/d/a", false);
      if (!d.ok) throw new Error(d.message);
      expect(walk(vfs.store, d.ino, "/d/a", { after: "/d/a/a-b", limit: 2 }).map((e) => e.path)).toEqual(
        all.filter((p) => p.startsWith("/d/a/") && byBytes(p, "/d/a/a-b") > 0).slice(0, 2),
      );
    }));
});
