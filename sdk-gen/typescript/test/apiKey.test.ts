/** A key that cannot be a credential fails in `new Cubicle()`, saying what is wrong with it. */
import { describe, expect, it } from "vitest";
import { Cubicle, CubicleError, InvalidApiKeyError } from "../src/index.ts";

describe("a malformed API key", () => {
  it("is refused before any request, naming the character, for a key passed or from the environment", () => {
    const sent: unknown[] = [];
    const fetch = async (input: unknown) => {
      sent.push(input);
      return new Response("{}");
    };
    for (const [apiKey, shown] of [
      ["cub_…", '"…" (U+2026) at character 5'],
      ["cub_abc def", '" " (U+0020) at character 8'],
      ["cub_abc\n", '"\\n" (U+000A) at character 8'],
    ] as const) {
      expect(() => new Cubicle({ apiKey, fetch })).toThrow(InvalidApiKeyError);
      expect(() => new Cubicle({ apiKey, fetch })).toThrow(shown);
    }
    process.env.CUBICLE_API_KEY = "cub_…";
    try {
      expect(() => new Cubicle({ fetch })).toThrow(/placeholder like "cub_…"/);
    } finally {
      delete process.env.CUBICLE_API_KEY;
    }
    expect(new InvalidApiKeyError("x")).toBeInstanceOf(CubicleError);
    expect(sent).toEqual([]);
  });

  it("lets every key and token shape through", () => {
    expect(() => new Cubicle({ apiKey: "cub_0123456789abcdefghijklmnopqrstuv" })).not.toThrow();
    expect(() => new Cubicle({ apiKey: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig-_~" })).not.toThrow();
  });
});
