/**
 * The container executor's filesystem and start-up, end to end through the platform
 * (`npm start`'s script via startPlatform, the local supervisor, computerd):
 * - every scenario of bench/container/scenarios.ts on the FUSE mount, the box's own disk
 *   and tmpfs, in the same run, timed inside the box; medians and the ratios the issue
 *   sets targets for (FUSE ÷ disk);
 * - cold start (a workspace with no computer → its first exec answered) and warm `echo ok`;
 * - the daemon's RSS with a 36,000-file workspace.
 *
 * `BENCH_CONTAINER_ONLY=create,stat` runs only those scenarios (while developing); the
 * section then says so. bench/container/host.ts and daemon.ts run the same scenarios
 * without the platform.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { newWorkspace, type Platform, signUp, startPlatform } from "../api/e2e/platform.ts";
import {
  describeTargets,
  type Fixtures,
  prepareFixtures,
  removeFixtures,
  runScenario,
  type ScenarioResult,
  type Target,
} from "./container/fsBench.ts";
import { type DaemonMemory, daemonMemory, type TreeMemoryResult, treeFiles, treeMemory } from "./container/memory.ts";
import { failures, formatMs, ratioTable, verdicts } from "./container/report.ts";
import { apiRunner, type Runner, runOk } from "./container/runner.ts";
import { scenarios } from "./container/scenarios.ts";
import { coldStarts, type Distribution, deleteWorkspaces, warmEchoes } from "./container/startup.ts";
import { choosePlan, table } from "./stats.ts";

const projectDir = join(dirname(fileURLToPath(import.meta.url)), "container/project");
const coldStartCount = 6;
const warmEchoCount = 50;

const targets: Target[] = [
  { name: "FUSE", root: "/workspace/bench" },
  { name: "disk", root: "/var/tmp/cubicle-bench" },
  { name: "tmpfs", root: "/dev/shm/cubicle-bench" },
];
const fixtures: Fixtures = {
  src: "/dev/shm/cubicle-bench-src",
  src2: "/dev/shm/cubicle-bench-src2",
  project: "/workspace/bench-project",
  npmCache: "/var/tmp/cubicle-bench-npm-cache",
};

async function uploadProject(url: string, auth: Record<string, string>, workspaceId: string): Promise<void> {
  for (const name of ["package.json", "package-lock.json"]) {
    const response = await fetch(`${url}/v1/workspaces/${workspaceId}/files/bench-project/${name}`, {
      method: "PUT",
      headers: auth,
      body: readFileSync(join(projectDir, name)),
    });
    if (!response.ok) throw new Error(`uploading ${name}: ${response.status} ${await response.text()}`);
  }
}

/** One line about the box, from inside it. */
async function describeBox(run: Runner): Promise<string> {
  const script =
    'echo "$(uname -sr), $(nproc) cores, git $(git --version | cut -d" " -f3), node $(node --version), npm $(npm --version), load $(cut -d" " -f1-3 /proc/loadavg)"';
  return (await runOk(run, script, { timeoutMs: 60_000 })).stdout.trim();
}

async function firstExec(platform: Platform, run: Runner): Promise<void> {
  try {
    await runOk(run, "echo ok", { timeoutMs: 60_000 });
  } catch (error) {
    const log = platform.output().split("\n").slice(-40).join("\n");
    throw new Error(`the container executor does not work yet: ${(error as Error).message}\n--- platform log\n${log}`);
  }
}

export async function containerBench(): Promise<string> {
  const only = process.env.BENCH_CONTAINER_ONLY?.split(",").filter(Boolean);
  // The replica (under the state dir) and the disk target sit on the same filesystem and in
  // the same parent, so the two columns differ by the mount and nothing else: on this
  // machine ext4 creates files in some directories of /tmp several times slower than in /var/tmp.
  const platform = await startPlatform(mkdtempSync("/var/tmp/cubicle-bench-state-"));
  try {
    const url = platform.url;
    const tenant = await signUp(url, "container-bench@example.com");
    await choosePlan(url, tenant.auth, "scale");
    const workspaceId = await newWorkspace(url, tenant.auth);
    await uploadProject(url, tenant.auth, workspaceId);
    const run = apiRunner(url, tenant.auth, workspaceId);
    await firstExec(platform, run);
    const boxBefore = await describeBox(run);
    const fsTypes = await describeTargets(run, targets);

    const results: ScenarioResult[] = [];
    await prepareFixtures(run, fixtures);
    try {
      for (const scenario of scenarios) {
        if (only && !only.includes(scenario.id)) continue;
        console.log(`container: ${scenario.title}`);
        results.push(await runScenario(run, scenario, targets, fixtures, console.log));
      }
    } finally {
      await removeFixtures(run, fixtures, targets);
    }
    const boxAfter = await describeBox(run);

    console.log("container: cold starts");
    const { cold, workspaceIds } = await coldStarts(url, tenant.auth, coldStartCount);
    const emptyMemory = await daemonMemory(apiRunner(url, tenant.auth, workspaceIds[0] as string));
    const warm = await warmEchoes(run, warmEchoCount);
    await deleteWorkspaces(url, tenant.auth, workspaceIds);
    console.log(`container: ${treeFiles.toLocaleString("en")}-file tree`);
    const tree = await treeMemory(url, tenant.auth);
    await deleteWorkspaces(url, tenant.auth, [tree.workspaceId]);

    return render({ results, fsTypes, boxBefore, boxAfter, cold, warm, empty: emptyMemory, tree, only });
  } finally {
    await platform.stop();
    rmSync(platform.stateDir, { recursive: true, force: true });
  }
}

interface Rendered {
  results: ScenarioResult[];
  fsTypes: Record<string, string>;
  boxBefore: string;
  boxAfter: string;
  cold: Distribution;
  warm: Distribution;
  empty: DaemonMemory;
  tree: TreeMemoryResult;
  only: string[] | undefined;
}

const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

function render(r: Rendered): string {
  const judged = verdicts(r.results).filter((v) => v.met !== undefined);
  const missed = judged.filter((v) => !v.met);
  const where = targets.map((t) => `${t.name} \`${t.root}\` (${r.fsTypes[t.name] ?? "?"})`).join(", ");
  return [
    "## Container filesystem (issue 7)",
    "",
    "`npm run bench` (this section alone: `node bench/run.ts container`). Every scenario runs in the same box, in",
    `the same run, on three targets: ${where}. The time is taken inside the box`,
    "(bash `$EPOCHREALTIME` around the timed script), so neither the API round trip nor the mount's push to the",
    "workspace object after the command counts; the last column is the client's wall time of the same exec, which",
    "includes both. Each run is setup (untimed exec) → timed exec → cleanup (untimed exec); targets alternate and",
    "their order rotates each round; one warm-up per target first; the table shows medians. No fsync anywhere; the",
    "64 MiB writes copy a random file from tmpfs with `dd bs=1M`; reads read a file written by the setup exec. The",
    "npm runs share one cache on the disk, primed by the warm-up run (`--prefer-offline`); measured runs use",
    "`--offline`. The full install is bench/container/project (package.json + package-lock.json).",
    ...(r.only ? ["", `**Partial run**: only ${r.only.join(", ")} (BENCH_CONTAINER_ONLY).`] : []),
    "",
    `Run ${new Date().toISOString()}. Box at start: ${r.boxBefore}. At end: load ${r.boxAfter.split("load ")[1] ?? "?"}.`,
    "",
    ratioTable(r.results, ["FUSE", "disk", "tmpfs"]),
    "",
    `Targets (FUSE ÷ disk: metadata ≤ 0.7, 64 MiB I/O ≤ 3, full npm install ≤ 1.3): ${judged.length - missed.length} of ${judged.length} met.` +
      (missed.length ? ` Missed: ${missed.map((v) => `${v.title} (${v.ratio?.toFixed(2)})`).join("; ")}.` : ""),
    failures(r.results),
    "",
    "### Start-up and daemon memory",
    "",
    table(
      ["measure", "n", "p50", "p90", "max"],
      [
        [
          "cold start: new workspace → first `echo ok` answered",
          r.cold.n,
          formatMs(r.cold.p50Ms),
          formatMs(r.cold.p90Ms),
          formatMs(r.cold.maxMs),
        ],
        ["warm `echo ok` round trip", r.warm.n, formatMs(r.warm.p50Ms), formatMs(r.warm.p90Ms), formatMs(r.warm.maxMs)],
      ],
    ),
    "",
    table(
      ["workspace", "daemon RSS", "daemon peak RSS (VmHWM)", "notes"],
      [
        ["empty (after its first exec)", mib(r.empty.rssKiB), mib(r.empty.peakKiB), ""],
        [
          `${treeFiles.toLocaleString("en")} files, after the first exec`,
          mib(r.tree.before.rssKiB),
          mib(r.tree.before.peakKiB),
          `tree written by API in ${formatMs(r.tree.writeTreeMs)}; first exec (cold, mounts it from the object) ${formatMs(r.tree.firstExecMs)}`,
        ],
        [
          `${treeFiles.toLocaleString("en")} files, after \`find /workspace\``,
          mib(r.tree.after.rssKiB),
          mib(r.tree.after.peakKiB),
          `find saw ${r.tree.entries.toLocaleString("en")} entries in ${formatMs(r.tree.findMs)}`,
        ],
      ],
    ),
    "",
    "RSS is VmRSS of the process whose command line names computerd, read from /proc inside the box.",
  ].join("\n");
}
