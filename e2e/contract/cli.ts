/**
 * The contract fuzzer from a shell, against a platform that is already running, for runs
 * longer than the test's: `node e2e/contract/cli.ts --url http://127.0.0.1:8787
 * --runs 5000 [--seed 42] [--only grep,batch]`. Exits 1 when the contract broke.
 */
import { parseArgs } from "node:util";
import { fuzzContract } from "./run.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:8787" },
    runs: { type: "string", default: "1000" },
    seed: { type: "string" },
    only: { type: "string" },
  },
});

const report = await fuzzContract({
  url: values.url,
  runs: Number(values.runs),
  seed: values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed),
  only: values.only?.split(",") ?? [],
  log: console.log,
});
process.exit(report.failure ? 1 : 0);
