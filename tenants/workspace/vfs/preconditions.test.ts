import { describe, expect, it } from "vitest";
import { ifMatchHolds, ifNoneMatchMatches } from "./preconditions.ts";

const file = { etag: '"abc"' };
const dir = { etag: null };

describe("ifMatchHolds", () => {
  it.each([
    ["*", file, true],
    ["*", dir, true],
    ["*", null, false],
    ['"abc"', file, true],
    ['"x", "abc"', file, true],
    ['"x","abc"', file, true],
    ['"x"', file, false],
    ['W/"abc"', file, false],
    ['"abc"', dir, false],
    ['"abc"', null, false],
  ])("%s against %j: %s", (header, entry, holds) => {
    expect(ifMatchHolds(header, entry)).toBe(holds);
  });
});

describe("ifNoneMatchMatches", () => {
  it.each([
    ["*", file, true],
    ["*", null, false],
    ['"abc"', file, true],
    ['W/"abc"', file, true],
    ['"x", W/"abc"', file, true],
    ['"x"', file, false],
    ['"abc"', dir, false],
  ])("%s against %j: %s", (header, entry, matches) => {
    expect(ifNoneMatchMatches(header, entry)).toBe(matches);
  });
});
