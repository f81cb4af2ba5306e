/**
 * The API's contract, fuzzed from openapi/openapi.json against the shared platform
 * (contract/run.ts): requests drawn from every operation's schemas, valid and invalid,
 * sent over HTTP to a tenant with a workspace, files, a run, a share and an artifact. It
 * fails on any 5xx, any status or media type an operation does not document, any body that
 * does not match its schema, and any schema-valid request refused for a reason the
 * document does not state (docs/errors.md lists the few rules a schema cannot state).
 *
 * Seeded and reproducible: it prints the seed and, on failure, the smallest failing
 * request fast-check found. `CUBICLE_FUZZ_SEED` replays a seed and `CUBICLE_FUZZ_RUNS`
 * sets the number of requests (longer runs locally: contract/cli.ts against `npm start`).
 */
import { expect, it } from "vitest";
import { fuzzContract } from "./contract/run.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

/** Requests per `npm test`: about 30 s on a 2-core machine; the seed changes every run. */
const RUNS_DEFAULT = 300;

it("holds the OpenAPI contract for generated requests", { timeout: 600_000 }, async () => {
  const platform = sharedPlatform();
  const seed = Number(process.env.CUBICLE_FUZZ_SEED ?? Date.now() % 2 ** 31);
  const runs = Number(process.env.CUBICLE_FUZZ_RUNS ?? RUNS_DEFAULT);
  const report = await fuzzContract({ url: platform.url, seed, runs, log: (line) => console.log(line) });
  expect(report.failure, report.failure ?? "").toBeNull();
  // A fuzzer that stops reaching the server proves nothing: most draws must be sent.
  expect(report.sent).toBeGreaterThan(runs * 0.8);
  // A lost connection is retried once (contract/run.ts); more than the odd one is a fault.
  expect(report.transportRetries).toBeLessThanOrEqual(Math.ceil(report.sent / 100));
});
