/**
 * The container executor's filesystem and start-up, end to end through the platform
 * (`npm start`'s script via startPlatform, the local supervisor, computerd), in both mount
 * modes at once: two platforms, one with COMPUTERD_MOUNT_MODE=native and one forced to
 * fuse, each with its box's own disk (bench/container/scratch.ts, COMPUTERD_BOX_SCRATCH) and
 * tmpfs beside the workspace mount.
 * - every scenario of bench/container/scenarios.ts on all six targets in the same run, timed
 *   inside the box; medians, native ÷ disk against issue 19's targets, FUSE ÷ disk, and the
 *   client's exec wall (the mount's sync included) for the end-to-end ratios;
 * - per mode: cold start, warm `echo ok`, and the daemon's RSS and first command with a
 *   36,000-file workspace;
 * - the fanotify helper's own cost (bench/container/native/fanotify.bench.ts), on the host.
 *
 * `BENCH_CONTAINER_ONLY=create,stat` runs only those scenarios (while developing); the
 * section then says so. `BENCH_CONTAINER_RESULTS=<file>` also saves the measurements as JSON. bench/container/host.ts and daemon.ts run the same scenarios
 * without the platform.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, release, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { newWorkspace, type Platform, signUp, startPlatform } from "../e2e/platform.ts";
import {
  describeRoots,
  type Fixtures,
  prepareFixtures,
  removeFixtures,
  runScenario,
  type ScenarioResult,
  type Target,
} from "./container/fsBench.ts";
import { daemonMemory, treeFiles, treeMemory } from "./container/memory.ts";
import { nativeBench } from "./container/native/fanotify.bench.ts";
import { apiRunner, type Runner, runOk } from "./container/runner.ts";
import { scenarios } from "./container/scenarios.ts";
import { describeDisk, mountScratch, type Scratch } from "./container/scratch.ts";
import { type ModeRun, renderSection } from "./container/section.ts";
import { coldStarts, deleteWorkspaces, warmEchoes } from "./container/startup.ts";
import { choosePlan } from "./stats.ts";

const projectDir = join(dirname(fileURLToPath(import.meta.url)), "container/project");
const coldStartCount = 6;
const warmEchoCount = 50;
const fanotifyRuns = 7;
const platformStartsMax = 3;

/** Where each target is inside every box. */
const roots = { mount: "/workspace/bench", disk: "/mnt/bench", tmpfs: "/tmp/cubicle-bench" };
const fixtures: Fixtures = {
  src: "/tmp/cubicle-bench-src",
  src2: "/tmp/cubicle-bench-src2",
  project: "/workspace/bench-project",
  npmCache: "/mnt/npm-cache",
};

type Mode = "native" | "fuse";

interface BenchBox {
  mode: Mode;
  label: ModeRun["label"];
  url: string;
  auth: Record<string, string>;
  run: Runner;
  /** The filesystem holding the platform's state (scratch.ts, describeDisk). */
  stateDisk: string;
}

/** What to stop and unmount at the end, however far the start got. */
interface Started {
  platform: Platform;
  /** The box's disk, and the FUSE platform's state disk (below). */
  disks: Scratch[];
}

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

const hostLoad = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** The host and the command as run, with the environment that shaped it. */
function describeHost(): string {
  const env = ["CUBICLE_IMAGES_DIR", "BENCH_CONTAINER_ONLY"].flatMap((key) =>
    process.env[key] ? [`${key}=${process.env[key]}`] : [],
  );
  const command = [...env, "node bench/run.ts container"].join(" ");
  const memoryGiB = Math.round(totalmem() / 2 ** 30);
  return `Host: ${availableParallelism()} cores (nproc), ${memoryGiB} GiB RAM, Linux ${release()}, Node ${process.version}; command \`${command}\`.`;
}

/**
 * Mounts the box's disk, starts a platform whose computers use `mode` and see that disk, and
 * makes the bench's workspace; its first command proves the mount mode.
 */
async function startBox(mode: Mode, parent: string, started: Started[]): Promise<BenchBox> {
  const scratch = await mountScratch(parent, `${mode}-disk-`);
  const disks = [scratch];
  // The FUSE replica makes and removes the workspace's files on the filesystem that holds the
  // platform's state, so that one must be a computer's kind of disk: a journaled ext4 made like
  // the box's. The host's own may not be (section.ts, hostStateDisk); the native mode's state
  // holds only its image file, whose files live on the image's own ext4.
  let stateParent = parent;
  if (mode === "fuse") {
    try {
      const stateDisk = await mountScratch(parent, "fuse-state-");
      disks.push(stateDisk);
      stateParent = stateDisk.mnt;
    } catch (error) {
      await scratch.dispose();
      throw error;
    }
  }
  const dispose = async () => {
    for (const disk of [...disks].reverse()) await disk.dispose();
  };
  let platform: Platform | null = null;
  // Ports are picked free and bound a moment later; on a machine shared with other test
  // runs another process sometimes takes one in between, so a failed start is tried again.
  for (let attempt = 1; !platform; attempt++) {
    try {
      platform = await startPlatform(mkdtempSync(join(stateParent, `${mode}-state-`)), {
        COMPUTERD_MOUNT_MODE: mode,
        COMPUTERD_BOX_SCRATCH: scratch.mnt,
      });
    } catch (error) {
      if (attempt < platformStartsMax) continue;
      await dispose();
      throw error;
    }
  }
  started.push({ platform, disks });
  const tenant = await signUp(platform.url, `container-bench-${mode}@example.com`);
  await choosePlan(platform.url, tenant.auth, "scale");
  const workspaceId = await newWorkspace(platform.url, tenant.auth);
  await uploadProject(platform.url, tenant.auth, workspaceId);
  const run = apiRunner(platform.url, tenant.auth, workspaceId);
  const box: BenchBox = {
    mode,
    label: mode === "native" ? "native" : "FUSE",
    url: platform.url,
    auth: tenant.auth,
    run,
    stateDisk: describeDisk(stateParent),
  };
  let first: Awaited<ReturnType<Runner>>;
  try {
    first = await runOk(run, "echo ok", { timeoutMs: 60_000 });
  } catch (error) {
    const log = platform.output().split("\n").slice(-40).join("\n");
    throw new Error(`the ${mode} platform's first exec failed: ${(error as Error).message}\n--- platform log\n${log}`);
  }
  if (first.mount !== mode) throw new Error(`the ${mode} platform's computer mounted ${first.mount}`);
  return box;
}

/** Start-up and memory of one mode; runs after the scenarios, on that box's platform alone. */
async function startupAndMemory(box: BenchBox): Promise<Omit<ModeRun, "boxBefore" | "boxAfter" | "fsTypes">> {
  console.log(`container: ${box.label} cold starts`);
  const { cold, workspaceIds } = await coldStarts(box.url, box.auth, coldStartCount);
  const empty = daemonMemory(workspaceIds[0] as string);
  const warm = await warmEchoes(box.run, warmEchoCount);
  await deleteWorkspaces(box.url, box.auth, workspaceIds);
  console.log(`container: ${box.label} ${treeFiles.toLocaleString("en")}-file tree`);
  const tree = await treeMemory(box.url, box.auth);
  await deleteWorkspaces(box.url, box.auth, [tree.workspaceId]);
  return { label: box.label, cold, warm, empty, tree };
}

export async function containerBench(): Promise<string> {
  const only = process.env.BENCH_CONTAINER_ONLY?.split(",").filter(Boolean);
  const startedAt = new Date();
  const loadStart = hostLoad();
  // Every image (the native computers', both box disks', the FUSE platform's state disk) and
  // the native platform's state on one host filesystem, /var/tmp on the root.
  const parent = mkdtempSync("/var/tmp/cubicle-bench-");
  chmodSync(parent, 0o755);
  const started: Started[] = [];
  const boxes: BenchBox[] = [];
  const modes: Partial<Record<Mode, ModeRun>> = {};
  const results: ScenarioResult[] = [];
  try {
    for (const mode of ["native", "fuse"] as const) boxes.push(await startBox(mode, parent, started));
    const described = new Map<BenchBox, { before: string; fsTypes: Record<string, string> }>();
    for (const box of boxes) {
      described.set(box, {
        before: await describeBox(box.run),
        fsTypes: await describeRoots(box.run, Object.values(roots)),
      });
      await prepareFixtures(box.run, fixtures);
    }
    const targets: Target[] = boxes.flatMap((box) => [
      { id: box.label, root: roots.mount, run: box.run },
      { id: `${box.label} disk`, root: roots.disk, run: box.run },
      { id: `${box.label} tmpfs`, root: roots.tmpfs, run: box.run },
    ]);
    try {
      for (const scenario of scenarios) {
        if (only && !only.includes(scenario.id)) continue;
        console.log(`container: ${scenario.title}`);
        results.push(await runScenario(scenario, targets, fixtures, console.log));
      }
    } finally {
      for (const box of boxes) await removeFixtures(box.run, fixtures, Object.values(roots)).catch(() => {});
    }
    for (const box of boxes) {
      const seen = described.get(box) as { before: string; fsTypes: Record<string, string> };
      const after = await describeBox(box.run);
      modes[box.mode] = {
        ...(await startupAndMemory(box)),
        boxBefore: seen.before,
        boxAfter: after,
        fsTypes: seen.fsTypes,
      };
    }
  } finally {
    for (const { platform, disks } of started) {
      await platform.stop();
      for (const disk of [...disks].reverse()) await disk.dispose();
    }
    rmSync(parent, { recursive: true, force: true });
  }
  const endedAt = new Date();
  const loadEnd = hostLoad();
  // On the host with the platforms stopped: the helper's own cost, no box, no sync.
  console.log("container: the fanotify helper's cost");
  const fanotify = (await nativeBench(fanotifyRuns)).replace(/^## /, "### ");
  const input = {
    results,
    native: modes.native as ModeRun,
    fuse: modes.fuse as ModeRun,
    roots,
    host: describeHost(),
    startedAt,
    endedAt,
    hostLoad: { start: loadStart, end: loadEnd },
    only,
    fanotify,
    disks: { host: describeDisk(parent), fuseState: boxes.find((box) => box.mode === "fuse")?.stateDisk ?? "?" },
  };
  // A run takes half an hour: its measurements are kept where asked, so the section can be
  // rendered again from them (JSON; the dates come back as strings).
  if (process.env.BENCH_CONTAINER_RESULTS) writeFileSync(process.env.BENCH_CONTAINER_RESULTS, JSON.stringify(input));
  return renderSection(input);
}
