import { describe, expect, it } from "vitest";
import { patchSections } from "./patch.ts";

describe("patchSections", () => {
  it("splits the service's patch per file and classes each line by its first characters", () => {
    const patch = [
      "diff --git a/notes/plan.md b/notes/plan.md",
      "--- a/notes/plan.md",
      "+++ b/notes/plan.md",
      "@@ -1,2 +1,2 @@",
      " --- a context line that looks like a header",
      "-two",
      "+TWO",
      "diff --git a/old name.txt b/new name.txt",
      "rename from old name.txt",
      "rename to new name.txt",
      "diff --git a/blob.bin b/blob.bin",
      "Binary files a/blob.bin and b/blob.bin differ",
      "",
    ].join("\n");
    const sections = patchSections(patch);
    expect(sections.map((s) => s.path)).toEqual(["/notes/plan.md", "/new name.txt", "/blob.bin"]);
    expect(sections[0]?.lines.map((l) => l.kind)).toEqual(["meta", "meta", "meta", "hunk", "context", "del", "add"]);
    expect(sections[1]?.lines.map((l) => l.kind)).toEqual(["meta", "meta", "meta"]);
    expect(sections[2]?.lines.at(-1)).toEqual({ kind: "meta", text: "Binary files a/blob.bin and b/blob.bin differ" });
  });

  it("has no section for an empty patch", () => {
    expect(patchSections("")).toEqual([]);
  });
});
