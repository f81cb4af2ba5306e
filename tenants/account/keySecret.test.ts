import { describe, expect, it } from "vitest";
import { checkKeySecret, displayPrefix, generateKeySecret, hashSecret } from "./keySecret.ts";

describe("key secrets", () => {
  it("generates distinct, well-formed keys that pass their own checksum", async () => {
    const keys = await Promise.all(Array.from({ length: 200 }, generateKeySecret));
    expect(new Set(keys).size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^cub_[0-9a-hjkmnp-tv-z]{40}$/);
      expect(await checkKeySecret(key)).toBe("ok");
    }
  });

  it("catches every single-character typo", async () => {
    const key = await generateKeySecret();
    for (let i = 4; i < key.length; i++) {
      const typo = key.slice(0, i) + (key[i] === "0" ? "1" : "0") + key.slice(i + 1);
      expect(await checkKeySecret(typo)).toBe("bad_checksum");
    }
  });

  it("refuses other shapes as malformed", async () => {
    for (const bad of [
      "",
      "cub_",
      "sk_live_abc",
      `cub_${"A".repeat(40)}`,
      `cub_${"a".repeat(39)}`,
      `xcub_${"a".repeat(40)}`,
    ]) {
      expect(await checkKeySecret(bad)).toBe("malformed");
    }
  });

  it("hashes to hex SHA-256 and shows a short prefix", async () => {
    const key = await generateKeySecret();
    expect(await hashSecret(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
  });
});
