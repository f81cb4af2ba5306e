/** prove's output read into per-file results, and an allow list applied to them. */
import { describe, expect, it } from "vitest";
import { formatRanges, judge, parseAllowList } from "./allowList.ts";
import { parseProve } from "./tap.ts";

const output = `/s/tests/chmod/00.t ..
1..4
ok 1
not ok 2 - tried 'chmod x 0777', expected 0, got EPERM
ok 3 # TODO known
ok 4
Failed 1/4 subtests
/s/tests/mknod/11.t ..
1..3
not ok 1 - tried 'mknod x c 1 2', expected 0, got EPERM
ok 2
Dubious, test returned 255
/s/tests/open/00.t .. ok
1..1
ok 1
`;

describe("pjdfstest results", () => {
  it("reads plans, passes, failures with their messages, and subtests a dying script never reported", () => {
    const files = parseProve(output);
    expect(files.map((f) => [f.file, f.planned, f.passed, f.failures.map((x) => x.n), f.missing])).toEqual([
      ["chmod/00.t", 4, 3, [2], 0],
      ["mknod/11.t", 3, 1, [1], 1],
      ["open/00.t", 1, 1, [], 0],
    ]);
    expect(files[0]?.failures[0]?.message).toBe("tried 'chmod x 0777', expected 0, got EPERM");
  });

  it("passes listed failures, names unlisted ones, and calls listed ones that pass stale", () => {
    const allow = parseAllowList(`# cause: device nodes need the host's CAP_MKNOD
mknod/11.t 1,3
# cause: a reason that no longer holds
open/00.t 1
`);
    const verdict = judge(parseProve(output), allow);
    expect(verdict.passed).toBe(5);
    expect([...verdict.allowed]).toEqual([["device nodes need the host's CAP_MKNOD", 2]]);
    expect(verdict.unexpected).toEqual(["chmod/00.t 2 tried 'chmod x 0777', expected 0, got EPERM"]);
    expect(verdict.stale).toEqual(["open/00.t 1 (a reason that no longer holds)"]);
  });

  it("takes a flaky group's subtests whether they fail or pass, and counts those that failed", () => {
    const allow = parseAllowList(`# flaky: a race being fixed
chmod/00.t 2
open/00.t 1
`);
    const verdict = judge(parseProve(output), allow);
    expect([...verdict.allowed]).toEqual([["flaky: a race being fixed", 1]]);
    expect(verdict.stale).toEqual([]);
    expect(verdict.unexpected).toEqual([
      "mknod/11.t 1 tried 'mknod x c 1 2', expected 0, got EPERM",
      expect.any(String),
    ]);
  });

  it("refuses an entry without a cause, and writes ranges short", () => {
    expect(() => parseAllowList("mknod/11.t 1")).toThrow(/cause/);
    expect(formatRanges([7, 1, 2, 3, 5])).toBe("1-3,5,7");
  });
});
