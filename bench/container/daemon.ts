/**
 * The scenarios against a real computerd without the platform: the daemon runs on this
 * machine (container/src/testing/harness.ts: its own temporary mount and state directory)
 * with an in-memory twin of the workspace object, and every script runs through its exec,
 * like the container executor's. So the mount column has the real mount (native or FUSE, as
 * the daemon chooses), pushes included, but not the workspace object or the API. A
 * development aid, not part of `npm run bench`:
 * `./node_modules/.bin/node bench/container/daemon.ts [scenario-id…]`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { run as exec, makeDirs, openSession, startDaemon } from "../../container/src/testing/harness.ts";
import { MemoryWorkspace } from "../../container/src/testing/memoryWorkspace.ts";
import {
  type Fixtures,
  prepareFixtures,
  removeFixtures,
  runScenario,
  type ScenarioResult,
  type Target,
} from "./fsBench.ts";
import { failures, medianTable } from "./report.ts";
import type { Runner } from "./runner.ts";
import { scenarios } from "./scenarios.ts";

const project = join(dirname(fileURLToPath(import.meta.url)), "project");
const only = process.argv.slice(2);
const dirs = await makeDirs();
const daemon = await startDaemon(dirs);
const session = await openSession(daemon.port, new MemoryWorkspace());
const run: Runner = async (script, { timeoutMs }) => {
  const start = performance.now();
  const result = await exec(session.computer, daemon.mount, script, { timeoutMs, outputBytesMax: 1024 * 1024 });
  return {
    exitCode: result.outcome.exitCode ?? 1,
    stdout: result.stdout,
    stderr: result.stderr + (result.outcome.error ? `\n${result.outcome.error}` : ""),
    wallMs: performance.now() - start,
  };
};
const targets: Target[] = [
  { id: "mount", root: `${daemon.mount}/bench`, run },
  { id: "disk", root: "/var/tmp/cubicle-bench-daemon", run },
  { id: "tmpfs", root: "/dev/shm/cubicle-bench-daemon", run },
];
const fixtures: Fixtures = {
  src: "/dev/shm/cubicle-bench-daemon-src",
  src2: "/dev/shm/cubicle-bench-daemon-src2",
  project,
  npmCache: "/var/tmp/cubicle-bench-npm-cache",
};

const results: ScenarioResult[] = [];
try {
  await prepareFixtures(run, fixtures);
  for (const scenario of scenarios) {
    if (only.length && !only.includes(scenario.id)) continue;
    results.push(await runScenario(scenario, targets, fixtures, console.log));
  }
} finally {
  await removeFixtures(
    run,
    fixtures,
    targets.map((t) => t.root),
  ).catch(() => {});
  session.close();
  await daemon.stop();
  await dirs.cleanup();
}
console.log(medianTable(results, ["mount", "disk", "tmpfs"]));
console.log(failures(results));
