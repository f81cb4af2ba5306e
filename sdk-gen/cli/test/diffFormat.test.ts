import type { Diff } from "@cubicle/sdk";
import { describe, expect, it } from "vitest";
import { colourPatch, nameStatus, type Paint, plain, summary } from "../src/diffFormat.ts";

const file = (size: number) => ({ type: "file" as const, size, mode: 0o644, etag: `"e${size}"` });

const DIFF: Diff = {
  from: 3,
  to: 7,
  truncated: false,
  entries: [
    { path: "/new.txt", status: "added", after: file(12) },
    { path: "/plan.md", status: "modified", before: file(10), after: file(2048) },
    { path: "/old.txt", status: "deleted", before: file(5) },
    { path: "/b.txt", previousPath: "/a.txt", status: "renamed", before: file(3), after: file(3) },
    { path: "/build", status: "added", after: { type: "dir", size: 0, mode: 0o755 } },
    { path: "/run.sh", status: "modified", before: file(8), after: { ...file(8), mode: 0o755 } },
    {
      path: "/private",
      status: "modified",
      before: { type: "dir", size: 0, mode: 0o755 },
      after: { type: "dir", size: 0, mode: 0o700 },
    },
  ],
};

/** A painter that shows which style each piece got, so the test reads without escape codes. */
const tagged: Paint = (style, text) => `<${String(style)}>${text}</>`;

describe("nameStatus", () => {
  it("prints one line a path with its letter, a rename's both names, and the sizes that changed", () => {
    expect(nameStatus(DIFF, plain)).toBe(
      [
        "A  /new.txt  (12 B)",
        "M  /plan.md  (10 B → 2.0 KiB)",
        "D  /old.txt  (5 B)",
        "R  /a.txt → /b.txt  (3 B)",
        "A  /build/",
        "M  /run.sh  (8 B)  (mode 0644 → 0755)",
        "M  /private/  (mode 0755 → 0700)",
        "",
      ].join("\n"),
    );
  });

  it("colours only the letter, by status", () => {
    const lines = nameStatus(DIFF, tagged).split("\n");
    expect(lines[0]).toBe("<green>A</>  /new.txt  (12 B)");
    expect(lines[1]?.startsWith("<yellow>M</>")).toBe(true);
    expect(lines[2]?.startsWith("<red>D</>")).toBe(true);
    expect(lines[3]?.startsWith("<cyan>R</>")).toBe(true);
  });
});

describe("colourPatch", () => {
  const patch = [
    "diff --git a/plan.md b/plan.md",
    "--- a/plan.md",
    "+++ b/plan.md",
    "@@ -1,2 +1,2 @@",
    " same",
    "-old -- line",
    "+new ++ line",
    "diff --git a/x.bin b/x.bin",
    "Binary files a/x.bin and b/x.bin differ",
    "",
  ].join("\n");

  it("leaves the text untouched without colour, so a pipe gets a patch git can apply", () => {
    expect(colourPatch(patch, plain)).toBe(patch);
  });

  it("colours by each line's first characters, as git diff does", () => {
    expect(colourPatch(patch, tagged).split("\n")).toEqual([
      "<bold>diff --git a/plan.md b/plan.md</>",
      "<bold>--- a/plan.md</>",
      "<bold>+++ b/plan.md</>",
      "<cyan>@@ -1,2 +1,2 @@</>",
      " same",
      "<red>-old -- line</>",
      "<green>+new ++ line</>",
      "<bold>diff --git a/x.bin b/x.bin</>",
      "<bold>Binary files a/x.bin and b/x.bin differ</>",
      "",
    ]);
  });
});

it("sums a diff up by status, and says when nothing changed", () => {
  expect(summary(DIFF)).toBe(
    "7 paths changed from revision 3 to revision 7: 2 added, 3 modified, 1 deleted, 1 renamed",
  );
  expect(summary({ ...DIFF, entries: [] })).toBe("no changes from revision 3 to revision 7");
});
