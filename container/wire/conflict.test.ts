/** The conflict rule's pure parts: how a copy is named, and which verdict each case gets. */
import { describe, expect, it } from "vitest";
import { conflictName, conflictStamp, syncVerdict } from "./conflict.ts";
import type { SyncBase } from "./index.ts";

const file = (etag: string): SyncBase => ({ type: "file", etag });
const dir: SyncBase = { type: "dir" };

describe("conflictName", () => {
  it("puts the tag before the extension, after a dotfile's or extensionless name, and counts on", () => {
    expect(conflictName("/docs/report.txt", "0badf00d")).toBe("/docs/report.conflict-0badf00d.txt");
    expect(conflictName("/docs/report.txt", "0badf00d", 3)).toBe("/docs/report.conflict-0badf00d-3.txt");
    expect(conflictName("/.env", "0badf00d")).toBe("/.env.conflict-0badf00d");
    expect(conflictName("/src/Makefile", "0badf00d")).toBe("/src/Makefile.conflict-0badf00d");
    expect(conflictName("/a/trailing.", "0badf00d")).toBe("/a/trailing..conflict-0badf00d");
  });

  it("shortens a long name's stem to stay within 255 bytes", () => {
    const name = conflictName(`/d/${"é".repeat(200)}.txt`, "0badf00d");
    const last = name.slice(3);
    expect(new TextEncoder().encode(last).byteLength).toBeLessThanOrEqual(255);
    expect(last.endsWith(".conflict-0badf00d.txt")).toBe(true);
  });

  it("stamps by the kept version: stable for the same version, different for another", () => {
    expect(conflictStamp(file('"a"'))).toBe(conflictStamp(file('"a"')));
    expect(conflictStamp(file('"a"'))).not.toBe(conflictStamp(file('"b"')));
    expect(conflictStamp(null)).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe("syncVerdict", () => {
  it("applies on a matching base, and takes a path already as wanted as done", () => {
    expect(syncVerdict(file("1"), file("1"), file("2"), true)).toBe("apply");
    expect(syncVerdict(file("1"), file("2"), file("2"), true)).toBe("same");
    expect(syncVerdict(null, null, file("2"), true)).toBe("apply");
  });

  it("finds a conflict where both sides changed the path", () => {
    expect(syncVerdict(file("1"), file("3"), file("2"), true)).toBe("conflict");
    expect(syncVerdict(null, file("3"), file("2"), true)).toBe("conflict");
    expect(syncVerdict(file("1"), null, file("2"), true)).toBe("conflict");
    expect(syncVerdict(file("1"), file("3"), null, true)).toBe("conflict");
    expect(syncVerdict(file("1"), file("3"), "attrs", true)).toBe("conflict");
  });

  it("replaces or removes a directory only when it is empty", () => {
    expect(syncVerdict(dir, dir, null, true)).toBe("apply");
    expect(syncVerdict(dir, dir, null, false)).toBe("conflict");
    expect(syncVerdict(dir, dir, file("1"), false)).toBe("conflict");
  });

  it("leaves the object's version where the container ended where it began", () => {
    expect(syncVerdict(null, file("3"), null, true)).toBe("unchanged");
    expect(syncVerdict(file("1"), file("3"), file("1"), true)).toBe("unchanged");
  });

  it("merges a directory into a path the object no longer has, and applies an op without a base", () => {
    expect(syncVerdict(file("1"), null, dir, true)).toBe("apply");
    expect(syncVerdict(undefined, file("3"), file("2"), true)).toBe("apply");
  });
});
