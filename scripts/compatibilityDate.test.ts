/**
 * The gateway's compatibility date is written twice by necessity: in wrangler.toml, which
 * wrangler reads, and in executors/contract.ts, which the executors give every Dynamic
 * Worker they load. This holds the Worker configurations to the contract, so module code
 * never runs on a different runtime from the gateway's after one of them moves.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMPATIBILITY_DATE } from "../executors/contract.ts";

const configs = ["wrangler.toml", "bench/worker/wrangler.toml"];

describe("compatibility date", () => {
  for (const path of configs) {
    it(`${path} uses the executors' date`, () => {
      const toml = readFileSync(`${import.meta.dirname}/../${path}`, "utf8");
      expect(toml.match(/^compatibility_date\s*=\s*"([^"]+)"/m)?.[1]).toBe(COMPATIBILITY_DATE);
    });
  }
});
