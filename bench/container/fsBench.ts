/**
 * Runs the scenarios on every target in one run: per scenario, warm-ups first, then the
 * measured runs interleaved across targets (the order rotates each round, so no target
 * always goes first after a cleanup). Targets may live in different boxes (each has its
 * runner), so two platforms' mounts are measured in the same minutes. Each run is three
 * execs: setup, timed, cleanup. The time is taken inside the box around the timed script
 * alone, so neither the API round trip nor the mount's push after the command counts; the
 * client's wall time of the timed exec (which includes both) is kept beside it.
 */
import type { Runner } from "./runner.ts";
import { runOk } from "./runner.ts";
import { type Scenario, warmupScript } from "./scenarios.ts";

export interface Target {
  /** Unique within a run: the key of its samples (`native`, `native disk`, …). */
  id: string;
  /** A directory the bench may create and delete; each scenario run gets a fresh one below it. */
  root: string;
  /** Runs a script in the box this target is in. */
  run: Runner;
}

/** Paths inside the box shared by every scenario (see scenarios.ts for what they hold). */
export interface Fixtures {
  src: string;
  src2: string;
  project: string;
  npmCache: string;
}

export interface Sample {
  /** Measured inside the box around the timed script. */
  timedMs: number;
  /** The timed exec as the client saw it. */
  wallMs: number;
}

export interface ScenarioResult {
  scenario: Scenario;
  /** By target id. */
  samples: Record<string, Sample[]>;
  /** The first failure per target id, if any; that target's later runs of the scenario are skipped. */
  errors: Record<string, string>;
}

const mib64 = 64 * 1024 * 1024;
const marker = "cubicle-bench-us";

/** Single-quotes `value` for sh. */
export const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

function prelude(fixtures: Fixtures, dir: string): string {
  return [
    "set -e",
    `export DIR=${quote(dir)} SRC=${quote(fixtures.src)} SRC2=${quote(fixtures.src2)} PROJECT=${quote(fixtures.project)}`,
    `export npm_config_cache=${quote(fixtures.npmCache)} npm_config_update_notifier=false`,
  ].join("\n");
}

/** Makes the two random 64 MiB sources (once; they stay for the run) and the npm cache directory. */
export async function prepareFixtures(run: Runner, fixtures: Fixtures): Promise<void> {
  const make = (path: string) =>
    `[ "$(wc -c < ${quote(path)} 2>/dev/null)" = ${mib64} ] || head -c ${mib64} /dev/urandom > ${quote(path)}`;
  await runOk(
    run,
    ["set -e", make(fixtures.src), make(fixtures.src2), `mkdir -p ${quote(fixtures.npmCache)}`].join("\n"),
    {
      timeoutMs: 120_000,
    },
  );
}

export async function removeFixtures(run: Runner, fixtures: Fixtures, roots: string[]): Promise<void> {
  const paths = [fixtures.src, fixtures.src2, ...roots].map(quote).join(" ");
  await run(`rm -rf ${paths}`, { timeoutMs: 600_000 });
}

/** The filesystem type of each root, as the box sees it (`stat -f`), to prove the targets differ. */
export async function describeRoots(run: Runner, roots: string[]): Promise<Record<string, string>> {
  const lines = roots.map((root) => `mkdir -p ${quote(root)} && echo "${root} $(stat -f -c %T ${quote(root)})"`);
  const { stdout } = await runOk(run, lines.join("\n"), { timeoutMs: 60_000 });
  return Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" ", 2) as [string, string]),
  );
}

async function runOnce(scenario: Scenario, target: Target, fixtures: Fixtures, warmup: boolean): Promise<Sample> {
  const run = target.run;
  const dir = `${target.root}/${scenario.id}`;
  const head = prelude(fixtures, dir);
  const options = { timeoutMs: scenario.timeoutMs, network: warmup };
  await runOk(run, `${head}\nrm -rf "$DIR"\nmkdir -p "$DIR"\ncd "$DIR"\n${scenario.setup ?? ":"}`, options);
  // bash's $EPOCHREALTIME (seconds with 6 decimals) costs ~30 µs to read; `$(date +%s%N)`
  // forks and costs 1–6 ms here, as much as some whole scenarios on tmpfs.
  const timed = [
    head,
    'cd "$DIR"',
    "t0=$EPOCHREALTIME",
    `{\n${warmup ? warmupScript(scenario) : scenario.timed}\n} >/dev/null`,
    "t1=$EPOCHREALTIME",
    scenario.verify ?? ":",
    `echo "${marker} $t0 $t1"`,
  ].join("\n");
  const result = await runOk(run, `exec bash -c ${quote(timed)}`, options);
  const times = result.stdout.match(new RegExp(`${marker} (\\d+)[.,](\\d{6}) (\\d+)[.,](\\d{6})`));
  if (!times) throw new Error(`no timing in the output of ${scenario.id}: ${result.stdout.slice(-500)}`);
  const micros = (whole?: string, fraction?: string) => BigInt(`${whole}${fraction}`);
  const elapsedUs = micros(times[3], times[4]) - micros(times[1], times[2]);
  await runOk(run, `${head}\n${scenario.cleanup ?? 'rm -rf "$DIR"'}`, options);
  return { timedMs: Number(elapsedUs) / 1e3, wallMs: result.wallMs };
}

export async function runScenario(
  scenario: Scenario,
  targets: Target[],
  fixtures: Fixtures,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const result: ScenarioResult = { scenario, samples: {}, errors: {} };
  const attempt = async (target: Target, warmup: boolean) => {
    if (result.errors[target.id]) return;
    try {
      const sample = await runOnce(scenario, target, fixtures, warmup);
      if (!warmup) result.samples[target.id] = [...(result.samples[target.id] ?? []), sample];
      log(`  ${scenario.id} ${target.id}${warmup ? " (warm-up)" : ""}: ${sample.timedMs.toFixed(1)} ms`);
    } catch (error) {
      result.errors[target.id] = String(error instanceof Error ? error.message : error);
      log(`  ${scenario.id} ${target.id} FAILED: ${result.errors[target.id]?.slice(0, 800)}`);
    }
  };
  for (let i = 0; i < scenario.warmups; i++) for (const target of targets) await attempt(target, true);
  for (let round = 0; round < scenario.runs; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
    for (const target of order) await attempt(target, false);
  }
  return result;
}

/** The median of one target's samples of `field`, or undefined when it has none. */
export function medianOf(result: ScenarioResult, targetId: string, field: keyof Sample): number | undefined {
  const samples = result.samples[targetId];
  return samples?.length ? median(samples.map((s) => s[field])) : undefined;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
