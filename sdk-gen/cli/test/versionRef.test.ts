import { expect, it } from "vitest";
import { CliError } from "../src/output.ts";
import { parseRevision, parseSnapshotId, parseVersion } from "../src/versionRef.ts";

it("takes snapshot ids, revisions and, where meant, live", () => {
  expect(parseVersion("snap_01kb1m2x3y4z5a6b7c8d9e0f1g", false)).toBe("snap_01kb1m2x3y4z5a6b7c8d9e0f1g");
  expect(parseVersion("42", false)).toBe("42");
  expect(parseVersion("live", true)).toBe("live");
  expect(parseRevision("0")).toBe(0);
  expect(parseSnapshotId("snap_abc")).toBe("snap_abc");
});

it("refuses anything else as a usage error (exit 2) before any request", () => {
  for (const [parse, value] of [
    [() => parseVersion("live", false), "live"],
    [() => parseVersion("HEAD~1", true), "HEAD~1"],
    [() => parseRevision("-1"), "-1"],
    [() => parseRevision("1.5"), "1.5"],
    [() => parseSnapshotId("ws_abc"), "ws_abc"],
  ] as const) {
    const error = (() => {
      try {
        parse();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error, value).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toContain(value);
  }
});
