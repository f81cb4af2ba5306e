import { describe, expect, it } from "vitest";
import {
  allowListDigest,
  allowListed,
  describeAllowList,
  normaliseAllowEntry,
  normaliseAllowList,
} from "./allowList.ts";

const entry = (raw: string) => {
  const result = normaliseAllowEntry(raw);
  return result.ok ? result.entry : `invalid: ${result.reason}`;
};
const allows = (entries: string[], url: string) => {
  const list = normaliseAllowList(entries);
  if (!list.ok) throw new Error(list.reason);
  return allowListed(new URL(url), list.allow);
};

describe("normaliseAllowEntry", () => {
  it.each([
    ["api.github.com", "api.github.com"],
    ["API.GitHub.com", "api.github.com"],
    ["api.github.com.", "api.github.com"],
    ["*.NPMjs.org", "*.npmjs.org"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["*.bücher.example:8443", "*.xn--bcher-kva.example:8443"],
    ["ＥＸＡＭＰＬＥ．com", "example.com"],
    ["api.github.com:0443", "api.github.com:443"],
    ["1.1.1.1", "1.1.1.1"],
    ["16843009:80", "1.1.1.1:80"],
    ["[2606:4700:0:0::1111]", "[2606:4700::1111]"],
    ["[2606:4700::1111]:443", "[2606:4700::1111]:443"],
    ["under_score.example", "under_score.example"],
  ])("normalises %s to %s", (raw, normalised) => {
    expect(entry(raw)).toBe(normalised);
  });

  it.each([
    ["", "must not be empty"],
    ["x".repeat(513), "longer than 512"],
    ["https://api.github.com", "not a URL"],
    ["api.github.com/repos", "not a URL"],
    ["user@api.github.com", "not a URL"],
    ["api github.com", "not a URL"],
    ["*", "whole first label"],
    ["*example.com", "whole first label"],
    ["api.*.github.com", "whole first label"],
    ["*.*.github.com", "whole first label"],
    ["api.github.com:", "port must be a number"],
    ["api.github.com:0", "port must be a number"],
    ["api.github.com:65536", "port must be a number"],
    ["api.github.com:http", "port must be a number"],
    ["2606:4700::1111", "needs brackets"],
    ["[2606:4700::1111]x", "not a URL"],
    ["[not-an-address]", "not a valid host name"],
    ["a..b.example", "not a valid host name"],
    ["a$b.example", "not a valid host name"],
    [`${"a".repeat(64)}.example`, "not a valid host name"],
    [`${"a.".repeat(127)}example`, "longer than 253"],
    ["*.1.1.1.1", "wildcard needs a host name"],
    ["127.0.0.1", "private or loopback"],
    ["2130706433", "private or loopback"],
    ["10.0.0.1:443", "private or loopback"],
    ["169.254.169.254", "private or loopback"],
    ["[::1]", "private or loopback"],
    ["[fd00::1]", "private or loopback"],
    ["localhost", "local host"],
    ["*.localhost", "local host"],
  ])("refuses %j (%s)", (raw, reason) => {
    expect(entry(raw)).toMatch(/^invalid: /);
    expect(entry(raw)).toContain(reason);
  });
});

describe("normaliseAllowList", () => {
  it("is a set: deduplicated after normalisation, sorted", () => {
    expect(normaliseAllowList(["b.example", "A.example", "a.example.", "*.c.example"])).toEqual({
      ok: true,
      allow: ["*.c.example", "a.example", "b.example"],
    });
  });

  it("names the first entry that is not valid", () => {
    expect(normaliseAllowList(["a.example", "b.example", "10.0.0.1"])).toMatchObject({ ok: false, index: 2 });
  });
});

describe("allowListed", () => {
  it("matches an exact host on any port and scheme, and nothing else", () => {
    const list = ["api.github.com"];
    expect(allows(list, "https://api.github.com/repos")).toBe(true);
    expect(allows(list, "http://API.GITHUB.COM:8080/")).toBe(true);
    expect(allows(list, "https://api.github.com./")).toBe(true);
    expect(allows(list, "https://github.com/")).toBe(false);
    expect(allows(list, "https://x.api.github.com/")).toBe(false);
    expect(allows(list, "https://api.github.com.evil.example/")).toBe(false);
    expect(allows(list, "https://evilapi.github.com/")).toBe(false);
  });

  it("matches a wildcard's subdomains at any depth, but not its apex", () => {
    const list = ["*.npmjs.org"];
    expect(allows(list, "https://registry.npmjs.org/react")).toBe(true);
    expect(allows(list, "https://a.b.npmjs.org/")).toBe(true);
    expect(allows(list, "https://npmjs.org/")).toBe(false);
    expect(allows(list, "https://evilnpmjs.org/")).toBe(false);
    expect(allows(list, "https://npmjs.org.evil.example/")).toBe(false);
    expect(allows(["*.npmjs.org", "npmjs.org"], "https://npmjs.org/")).toBe(true);
  });

  it("holds an entry with a port to that port, defaulting by scheme", () => {
    const list = ["api.github.com:443", "*.example.com:8080"];
    expect(allows(list, "https://api.github.com/")).toBe(true);
    expect(allows(list, "http://api.github.com:443/")).toBe(true);
    expect(allows(list, "http://api.github.com/")).toBe(false);
    expect(allows(list, "https://api.github.com:8443/")).toBe(false);
    expect(allows(list, "http://a.example.com:8080/")).toBe(true);
    expect(allows(list, "http://a.example.com/")).toBe(false);
  });

  it("matches IP literals in the URL parser's spelling", () => {
    expect(allows(["1.1.1.1"], "http://16843009/")).toBe(true);
    expect(allows(["1.1.1.1:80"], "http://1.1.1.1/")).toBe(true);
    expect(allows(["[2606:4700::1111]"], "https://[2606:4700:0::1111]/")).toBe(true);
    expect(allows(["[2606:4700::1111]:443"], "https://[2606:4700::1111]:8443/")).toBe(false);
    expect(allows(["1.1.1.1"], "http://1.1.1.2/")).toBe(false);
  });

  it("matches a Unicode name by its punycode", () => {
    expect(allows(["bücher.example"], "https://BÜCHER.example/")).toBe(true);
    expect(allows(["*.bücher.example"], "https://www.xn--bcher-kva.example/")).toBe(true);
  });
});

describe("allowListDigest", () => {
  it("is stable for a list and differs between lists", async () => {
    const a = await allowListDigest(["a.example", "b.example"]);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(await allowListDigest(["a.example", "b.example"])).toBe(a);
    expect(await allowListDigest(["a.example"])).not.toBe(a);
    // Entries never contain a newline, so joining them cannot make two lists one.
    expect(await allowListDigest(["a.exampleb.example"])).not.toBe(a);
  });
});

describe("describeAllowList", () => {
  it("quotes a short list whole and a long one in part", () => {
    expect(describeAllowList(["a.example", "b.example"])).toBe("a.example, b.example");
    const long = Array.from({ length: 10 }, (_, i) => `h${i}.example`);
    expect(describeAllowList(long)).toBe(`${long.slice(0, 8).join(", ")} and 2 more`);
  });
});
