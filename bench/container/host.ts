/**
 * The scenarios on this machine with `/bin/sh -c`, on the local disk and tmpfs only: a way
 * to check the scripts and the harness without the platform or computerd. Not part of
 * `npm run bench`. Run: `./node_modules/.bin/node bench/container/host.ts [scenario-id…]`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Fixtures,
  prepareFixtures,
  removeFixtures,
  runScenario,
  type ScenarioResult,
  type Target,
} from "./fsBench.ts";
import { failures, medianTable } from "./report.ts";
import { hostRunner } from "./runner.ts";
import { scenarios } from "./scenarios.ts";

const project = join(dirname(fileURLToPath(import.meta.url)), "project");
const only = process.argv.slice(2);
const run = hostRunner();
const targets: Target[] = [
  { id: "disk", root: "/var/tmp/cubicle-bench-host", run },
  { id: "tmpfs", root: "/dev/shm/cubicle-bench-host", run },
];
const fixtures: Fixtures = {
  src: "/dev/shm/cubicle-bench-host-src",
  src2: "/dev/shm/cubicle-bench-host-src2",
  project,
  npmCache: "/var/tmp/cubicle-bench-npm-cache",
};

await prepareFixtures(run, fixtures);
const results: ScenarioResult[] = [];
try {
  for (const scenario of scenarios) {
    if (only.length && !only.includes(scenario.id)) continue;
    results.push(await runScenario(scenario, targets, fixtures, console.log));
  }
} finally {
  await removeFixtures(
    run,
    fixtures,
    targets.map((t) => t.root),
  );
}
console.log(medianTable(results, ["disk", "tmpfs"]));
console.log(failures(results));
