/**
 * The change journal on a real kernel: what child processes do on the loop ext4 reaches
 * onChange as workspace paths once drain() resolves; this process's own writes never do.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { disposeNativeHarnesses, type NativeHarness, startNativeHarness } from "../testing/fanotifyHarness.ts";
import type { Change, ChangeKind } from "./fanotify.ts";

let h: NativeHarness;
beforeAll(async () => {
  h = await startNativeHarness();
});
afterAll(async () => {
  await disposeNativeHarnesses();
});
beforeEach(async () => {
  await h.helper.drain();
  h.changes.length = 0;
});

/** Runs a script, drains, and returns what was reported for it. */
async function changesOf(script: string): Promise<Change[]> {
  const result = await h.sh(script);
  expect(result.stderr).toBe("");
  await h.helper.drain();
  return [...h.changes];
}

/** Every kind reported for a path (merged across entries), or undefined when it was not reported. */
function kindsAt(changes: Change[], path: string, isDir = false): Set<ChangeKind> | undefined {
  const matching = changes.filter((c) => c.path === path && c.isDir === isDir);
  return matching.length ? new Set(matching.flatMap((c) => c.kinds)) : undefined;
}

describe("the journal", () => {
  it("reports a created file and its write", async () => {
    const changes = await changesOf("echo hi > created.txt");
    expect(kindsAt(changes, "/created.txt")).toEqual(new Set(["create", "write"]));
  });

  it("reports a rename with both paths", async () => {
    await changesOf("echo x > before.txt");
    h.changes.length = 0;
    const changes = await changesOf("mv before.txt after.txt");
    expect(changes).toContainEqual(
      expect.objectContaining({ kinds: ["move"], from: "/before.txt", path: "/after.txt" }),
    );
  });

  it("reports a delete, and a chmod as attrib", async () => {
    await changesOf("echo x > doomed.txt && echo y > modes.txt");
    h.changes.length = 0;
    const changes = await changesOf("rm doomed.txt && chmod 600 modes.txt");
    expect(kindsAt(changes, "/doomed.txt")).toEqual(new Set(["delete"]));
    expect(kindsAt(changes, "/modes.txt")).toEqual(new Set(["attrib"]));
  });

  it("reports mkdir and rmdir as directories", async () => {
    const made = await changesOf("mkdir made");
    expect(kindsAt(made, "/made", true)).toEqual(new Set(["create"]));
    h.changes.length = 0;
    const removed = await changesOf("rmdir made");
    expect(kindsAt(removed, "/made", true)).toEqual(new Set(["delete"]));
  });

  it("reports nested paths from the workspace root", async () => {
    const changes = await changesOf("mkdir -p a/b/c && echo deep > a/b/c/file.txt && mv a/b/c a/b/d");
    expect(kindsAt(changes, "/a/b", true)).toEqual(new Set(["create"]));
    expect(changes).toContainEqual(
      expect.objectContaining({ kinds: ["move"], isDir: true, from: "/a/b/c", path: "/a/b/d" }),
    );
    // Resolved when read: the file's directory is already called d.
    const file = changes.find((c) => c.path.endsWith("/file.txt"));
    expect(file?.path).toMatch(/^\/a\/b\/[cd]\/file\.txt$/);
  });

  it("reports a name holding a newline and one that is not UTF-8", async () => {
    const child = spawn("touch", [h.host("/line\nbreak.txt")]);
    await new Promise((resolve) => child.on("close", resolve));
    await changesOf("touch \"$(printf 'caf\\351.txt')\"");
    expect(kindsAt(h.changes, "/line\nbreak.txt")).toContain("create");
    // Latin-1 é (0xe9) is not UTF-8: it arrives as U+FFFD in the string.
    expect(kindsAt(h.changes, "/caf\ufffd.txt")).toContain("create");
  });

  it("tells hard links apart by inode", async () => {
    const changes = await changesOf("echo x > original.txt && ln original.txt link.txt");
    const original = changes.find((c) => c.path === "/original.txt");
    const link = changes.find((c) => c.path === "/link.txt");
    expect(link?.kinds).toContain("create");
    expect(link?.ino).toBeDefined();
    expect(link?.ino).toBe(original?.ino);
  });

  it("does not report the allow pid's own writes", async () => {
    writeFileSync(h.host("/own.txt"), "computerd wrote this");
    const changes = await changesOf("echo box > box.txt");
    expect(kindsAt(changes, "/box.txt")).toBeDefined();
    expect(kindsAt(changes, "/own.txt")).toBeUndefined();
  });

  it("does not report a hydration's writes", async () => {
    await h.placeholder("/hydrated.txt", "content");
    const changes = await changesOf("cat hydrated.txt > /dev/null");
    expect(changes.filter((c) => c.path === "/hydrated.txt")).toEqual([]);
  });

  it("has every change of a finished command once drain resolves", async () => {
    const result = await h.sh("mkdir many && i=0; while [ $i -lt 2000 ]; do : > many/f$i; i=$((i+1)); done");
    expect(result.code).toBe(0);
    await h.helper.drain();
    const created = new Set(h.changes.filter((c) => c.kinds.includes("create")).map((c) => c.path));
    for (let i = 0; i < 2000; i++) expect(created.has(`/many/f${i}`)).toBe(true);
    expect(h.rescans).toEqual([]);
  });
});
