/**
 * What the native mode's fanotify helper costs the filesystem it watches: the same
 * scenarios on a loop ext4 with the helper attached (both groups, computerd's stand-in being
 * this process), on an identical loop ext4 without it, and on the host's own disk (/tmp) for
 * reference. Also the price of a placeholder's first read: 1,000 placeholders read once
 * (each a request to this process, its content sent inline, a write) against 1,000 local files.
 *
 * Scripts run in bash as child processes (so the helper sees them as a container), timed
 * inside bash with $EPOCHREALTIME around the timed part alone; setup is untimed, and the
 * journal is drained (untimed) after every run. Runs are interleaved across targets.
 * Run as root: `node bench/container/native/fanotify.bench.ts [runs] [scenario ids…]`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureFanotifyBinary } from "../../../container/native/build.ts";
import { type FanotifyHelper, startFanotify } from "../../../container/src/native/fanotify.ts";
import { nativeLimits } from "../../../container/src/native/limits.ts";
import { mountLoopExt4 } from "../../../container/src/testing/loopExt4.ts";

type TargetName = "disk" | "ext4" | "ext4 + helper";

interface Target {
  name: TargetName;
  root: string;
  helper?: FanotifyHelper;
}

interface Scenario {
  id: string;
  title: string;
  /** Untimed, in the scenario's fresh directory; may use the `placeholders` hook instead on the helper target. */
  setup?: string;
  timed: string;
  /** When set, the helper target's setup makes this many placeholders f0… (the others get real files). */
  placeholders?: number;
}

const createFiles = (count: number) =>
  `i=0; while [ $i -lt ${count} ]; do printf 'file %d\\n' $i > f$i; i=$((i + 1)); done`;
const treePaths = `awk 'BEGIN { for (a = 0; a < 10; a++) { print "d" a; for (b = 0; b < 10; b++) { print "d" a "/" b; for (c = 0; c < 10; c++) print "d" a "/" b "/" c } } }'`;

const scenarios: Scenario[] = [
  { id: "create", title: "create 1,000 files", timed: createFiles(1000) },
  {
    id: "stat",
    title: "stat 1,000 files",
    setup: createFiles(1000),
    timed: "i=0; while [ $i -lt 1000 ]; do [ -f f$i ]; i=$((i + 1)); done",
  },
  { id: "rm", title: "rm 1,000 files", setup: createFiles(1000), timed: "rm -f -- f*" },
  { id: "mkdir", title: "mkdir a 10×10×10 tree", timed: `${treePaths} | xargs mkdir` },
  { id: "find", title: "find the 10×10×10 tree", setup: `${treePaths} | xargs mkdir`, timed: "find . > /dev/null" },
  { id: "write64", title: "write 64 MiB", timed: 'dd if="$SRC" of=big bs=1M 2>/dev/null' },
  {
    id: "read64",
    title: "read 64 MiB",
    setup: 'dd if="$SRC" of=big bs=1M 2>/dev/null',
    timed: "dd if=big of=/dev/null bs=1M 2>/dev/null",
  },
  {
    id: "first-read",
    title: "first read of 1,000 small files (placeholders with the helper)",
    setup: createFiles(1000),
    placeholders: 1000,
    timed: "cat -- f* > /dev/null",
  },
  {
    id: "reread",
    title: "read the same 1,000 files again",
    setup: createFiles(1000),
    placeholders: 1000,
    timed: "cat -- f* > /dev/null",
  },
];

function bash(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${script}: exit ${code}: ${err}`))));
  });
}

/** Makes `count` placeholders f0… in `dir` (a workspace path) whose content is "file <i>\n". */
async function placeholders(helper: FanotifyHelper, remote: Map<string, string>, dir: string, count: number) {
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const key = `bench ${dir}/f${i}`;
      const content = `file ${i}\n`;
      remote.set(key, content);
      return helper.place({
        path: `${dir}/f${i}`,
        size: content.length,
        mode: 0o644,
        uid: 0,
        gid: 0,
        mtimeNs: 0n,
        key,
      });
    }),
  );
}

async function runOnce(
  target: Target,
  scenario: Scenario,
  run: number,
  env: Record<string, string>,
  remote: Map<string, string>,
) {
  const rel = `/${scenario.id}-${run}`;
  const dir = join(target.root, rel);
  mkdirSync(dir);
  if (target.helper && scenario.placeholders) {
    await placeholders(target.helper, remote, rel, scenario.placeholders);
    if (scenario.id === "reread") await bash(`cd "${dir}" && cat -- f* > /dev/null`, env);
  } else if (scenario.setup) {
    await bash(`cd "${dir}" && ${scenario.setup}`, env);
  }
  await target.helper?.drain();
  const out = await bash(
    `cd "${dir}" && t0=$EPOCHREALTIME && { ${scenario.timed}; } && t1=$EPOCHREALTIME && echo "$t0 $t1"`,
    env,
  );
  await target.helper?.drain();
  rmSync(dir, { recursive: true, force: true });
  await target.helper?.drain();
  const [t0, t1] = out.trim().split(" ").map(Number);
  return ((t1 ?? 0) - (t0 ?? 0)) * 1000;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function nativeBench(runs = 7, only?: string[]): Promise<string> {
  // COMPUTERD_FANOTIFY_BIN measures another build of the helper (a variant under study).
  const override = process.env.COMPUTERD_FANOTIFY_BIN;
  const built = override ? { ok: true as const, path: override } : await ensureFanotifyBinary();
  if (!built.ok) return `## Native mode (fanotify)\n\nSkipped: ${built.reason}\n`;
  const scratch = mkdtempSync(join(tmpdir(), "cubicle-native-bench-"));
  const plain = await mountLoopExt4({ prefix: "cubicle-native-bench-plain-", sizeMiB: 1024 });
  const watched = await mountLoopExt4({ prefix: "cubicle-native-bench-watched-", sizeMiB: 1024 });
  const remote = new Map<string, string>();
  let contentSeq = 0;
  const helper = await startFanotify({
    binary: built.path,
    mountRoot: watched.mnt,
    allowPid: process.pid,
    async hydrate(request) {
      const content = remote.get(request.key);
      if (content === undefined) return { errno: 5 };
      // As computerd would: small content inline, larger content through a file.
      if (content.length <= nativeLimits.inlineBytesMax) return { bytes: Buffer.from(content) };
      const file = join(scratch, `content-${contentSeq++}`);
      writeFileSync(file, content);
      return { file, release: () => rmSync(file, { force: true }) };
    },
    onChange: () => {},
    onRescan: (reason) => console.error(`rescan: ${reason}`),
  });
  const disk = join(scratch, "disk");
  mkdirSync(disk);
  const targets: Target[] = [
    { name: "disk", root: disk },
    { name: "ext4", root: plain.mnt },
    { name: "ext4 + helper", root: watched.mnt, helper },
  ];
  const src = join("/dev/shm", `cubicle-native-bench-src-${process.pid}`);
  const env = { SRC: src };
  const results: { scenario: Scenario; ms: Record<TargetName, number> }[] = [];
  try {
    await bash(`head -c 67108864 /dev/urandom > "${src}"`, env);
    for (const scenario of scenarios.filter((s) => !only?.length || only.includes(s.id))) {
      const samples: Record<TargetName, number[]> = { disk: [], ext4: [], "ext4 + helper": [] };
      for (const target of targets) await runOnce(target, scenario, -1, env, remote); // warm-up
      for (let run = 0; run < runs; run++) {
        // Rotate the order each round so no target always runs first after a cleanup.
        for (let i = 0; i < targets.length; i++) {
          const target = targets[(i + run) % targets.length] as Target;
          samples[target.name].push(await runOnce(target, scenario, run, env, remote));
        }
      }
      const ms = {
        disk: median(samples.disk),
        ext4: median(samples.ext4),
        "ext4 + helper": median(samples["ext4 + helper"]),
      };
      results.push({ scenario, ms });
      console.error(`${scenario.title}: ${JSON.stringify(ms)}`);
    }
  } finally {
    rmSync(src, { force: true });
    await helper.stop();
    await plain.dispose();
    await watched.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
  return report(results, runs, helper.stats());
}

function report(
  results: { scenario: Scenario; ms: Record<TargetName, number> }[],
  runs: number,
  stats: object,
): string {
  const rows = results.map(({ scenario, ms }) => {
    const cells = [ms.disk, ms.ext4, ms["ext4 + helper"]].map((v) => v.toFixed(1));
    return `| ${scenario.title} | ${cells.join(" | ")} | ${(ms["ext4 + helper"] / ms.ext4).toFixed(2)} | ${(ms["ext4 + helper"] / ms.disk).toFixed(2)} |`;
  });
  return [
    "## Native mode: the fanotify helper's cost",
    "",
    `bench/container/native/fanotify.bench.ts, median of ${runs} runs (ms), bash on the host. "disk" is the host's`,
    'root ext4 (/tmp); "ext4" a fresh 1 GiB loop ext4 (image in /tmp); "ext4 + helper" an identical one with',
    "cubicle-fanotify attached (pre-content and journal groups, this process answering). First read: the",
    "helper's column reads placeholders (a request each, content sent inline, a write); the others read local files.",
    "",
    "| scenario | disk | ext4 | ext4 + helper | helper ÷ ext4 | helper ÷ disk |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `Helper counters over the run: ${JSON.stringify(stats)}.`,
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await nativeBench(Number(process.argv[2] ?? 7), process.argv.slice(3)));
}
