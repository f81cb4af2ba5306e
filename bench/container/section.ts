/**
 * The container section of docs/benchmarks.md: the scenario table (native and FUSE beside
 * the box's disk and tmpfs, with issue 19's targets), the end-to-end rows, start-up and
 * memory, the seed's published figures, and the fanotify helper's micro-benchmark.
 */
import { nativeLimits } from "../../container/src/native/limits.ts";
import { table } from "../stats.ts";
import { medianOf, type ScenarioResult } from "./fsBench.ts";
import type { DaemonMemory, TreeMemoryResult } from "./memory.ts";
import { lastFuse, seed } from "./published.ts";
import { failures, formatMs, ratioOf, timedCell } from "./report.ts";
import type { ScenarioFamily } from "./scenarios.ts";
import type { Distribution } from "./startup.ts";

/** What one platform (one mount mode) measured besides the scenarios. */
export interface ModeRun {
  /** Also the id of its mount target; its disk and tmpfs are `<label> disk` and `<label> tmpfs`. */
  label: "native" | "FUSE";
  boxBefore: string;
  boxAfter: string;
  /** Filesystem type (`stat -f`) of each target root, as its box sees it. */
  fsTypes: Record<string, string>;
  cold: Distribution;
  warm: Distribution;
  empty: DaemonMemory;
  tree: TreeMemoryResult;
}

export interface SectionInput {
  results: ScenarioResult[];
  native: ModeRun;
  fuse: ModeRun;
  roots: { mount: string; disk: string; tmpfs: string };
  /** One line: the host's cores, memory, kernel and Node, and the command with its environment. */
  host: string;
  startedAt: Date;
  endedAt: Date;
  hostLoad: { start: string; end: string };
  only: string[] | undefined;
  /** The fanotify micro-benchmark's sub-section, or why it did not run. */
  fanotify: string;
  /** The filesystems holding the platforms' state (scratch.ts, describeDisk). */
  disks: { host: string; fuseState: string };
}

/** End-to-end targets of issue 19 (client wall, the mount's sync included). */
const endToEndMax = { npmFull: 1.6, create: 2 };
const firstExecMaxMs = 1_000;
const treeRssMaxMiB = 64;

const mark = (met: boolean | undefined) => (met === undefined ? "" : met ? " ✅" : " ❌");
const mib = (kib: number) => kib / 1024;
const fmtRatio = (r: number | undefined) => (r === undefined ? "—" : r.toFixed(2));

/**
 * The daemon's own memory, RssAnon of computerd and its helper, judged against the target;
 * then VmRSS, which adds the node binary's file pages (shared with every Node process on
 * the host, so not the daemon's to spend), and its peak.
 */
function memoryCell(m: DaemonMemory, judged: boolean): string {
  const own = mib(m.privateKiB + m.helperPrivateKiB);
  const parts = m.helperRssKiB
    ? ` (${mib(m.privateKiB).toFixed(0)} + helper ${mib(m.helperPrivateKiB).toFixed(1)})`
    : "";
  const rss = mib(m.rssKiB + m.helperRssKiB).toFixed(0);
  const peak = mib(m.peakKiB + m.helperPeakKiB).toFixed(0);
  return `${own.toFixed(0)} MiB${judged ? mark(own <= treeRssMaxMiB) : ""}${parts}; VmRSS ${rss}, peak ${peak}`;
}

interface Verdict {
  title: string;
  ratio: number | undefined;
  targetMax: number;
  met: boolean | undefined;
}

function nativeVerdicts(r: SectionInput): Verdict[] {
  return r.results.map((result) => {
    const ratio = ratioOf(result, "native", "native disk");
    const targetMax = result.scenario.targetMax;
    return {
      title: result.scenario.title,
      ratio,
      targetMax,
      met: ratio === undefined ? undefined : ratio <= targetMax,
    };
  });
}

function scenarioTable(r: SectionInput): string {
  const verdicts = nativeVerdicts(r);
  const rows = r.results.map((result, i) => {
    const v = verdicts[i] as Verdict;
    const both = (kind: "disk" | "tmpfs") =>
      `${timedCell(result, `native ${kind}`)} / ${timedCell(result, `FUSE ${kind}`)}`;
    const wall = (id: string) => {
      const value = medianOf(result, id, "wallMs");
      return value === undefined ? "—" : formatMs(value);
    };
    return [
      result.scenario.title,
      Math.max(...Object.values(result.samples).map((s) => s.length)),
      timedCell(result, "native"),
      timedCell(result, "FUSE"),
      both("disk"),
      both("tmpfs"),
      `${fmtRatio(v.ratio)}${mark(v.met)}`,
      `≤ ${v.targetMax}`,
      fmtRatio(ratioOf(result, "FUSE", "FUSE disk")),
      `${wall("native")} / ${wall("FUSE")} / ${wall("native disk")}`,
    ];
  });
  return table(
    [
      "scenario",
      "n",
      "native",
      "FUSE",
      "disk (native box / FUSE box)",
      "tmpfs (native box / FUSE box)",
      "native ÷ disk",
      "target",
      "FUSE ÷ disk",
      "exec wall (client): native / FUSE / disk",
    ],
    rows,
  );
}

/**
 * The FUSE fallback against its last published run: the times, and FUSE ÷ tmpfs of both runs,
 * which stays comparable when the machine itself got slower or faster in between.
 */
function fuseAgainstPublished(r: SectionInput): string {
  const rows = r.results.flatMap((result) => {
    const id = result.scenario.id;
    const then = lastFuse.timedMs[id];
    const thenTmpfs = lastFuse.tmpfsMs[id];
    const now = medianOf(result, "FUSE", "timedMs");
    const nowTmpfs = medianOf(result, "FUSE tmpfs", "timedMs");
    if (then === undefined || thenTmpfs === undefined || now === undefined || !nowTmpfs) return [];
    return [
      [
        result.scenario.title,
        formatMs(then),
        formatMs(now),
        `${(now / then).toFixed(2)}${mark(now <= then)}`,
        `${formatMs(thenTmpfs)} → ${formatMs(nowTmpfs)}`,
        `${(then / thenTmpfs).toFixed(2)} → ${(now / nowTmpfs).toFixed(2)}${mark(now / nowTmpfs <= then / thenTmpfs)}`,
      ],
    ];
  });
  return table(
    ["scenario", `FUSE ${lastFuse.date}`, "FUSE now", "now ÷ then", "tmpfs then → now", "FUSE ÷ tmpfs then → now"],
    rows,
  );
}

/** native (or FUSE) exec wall ÷ its own box's disk exec wall, for one scenario. */
function endToEnd(r: SectionInput, id: string, label: "native" | "FUSE") {
  const result = r.results.find((x) => x.scenario.id === id);
  if (!result) return undefined;
  const mount = medianOf(result, label, "wallMs");
  const disk = medianOf(result, `${label} disk`, "wallMs");
  return mount !== undefined && disk ? { ratio: mount / disk, mount, disk } : undefined;
}

function endToEndCell(value: ReturnType<typeof endToEnd>, targetMax?: number): string {
  if (!value) return "—";
  const met = targetMax === undefined ? undefined : value.ratio <= targetMax;
  return `${value.ratio.toFixed(2)}${mark(met)} (${formatMs(value.mount)} ÷ ${formatMs(value.disk)})`;
}

function platformTable(r: SectionInput): string {
  const published = (id: string) => {
    const w = lastFuse.wallMs[id];
    return w ? `${(w.mount / w.disk).toFixed(2)} (${formatMs(w.mount)} ÷ ${formatMs(w.disk)})` : "—";
  };
  const first = (m: ModeRun, judged: boolean) =>
    `${formatMs(m.tree.firstExecMs)}${judged ? mark(m.tree.firstExecMs <= firstExecMaxMs) : ""}`;
  return table(
    ["measure", "native target", "native", "FUSE", `FUSE on ${lastFuse.date}`],
    [
      [
        "full `npm install`, end to end: exec wall ÷ the disk's exec wall (client, sync included)",
        `≤ ${endToEndMax.npmFull}`,
        endToEndCell(endToEnd(r, "npm-full", "native"), endToEndMax.npmFull),
        endToEndCell(endToEnd(r, "npm-full", "FUSE")),
        published("npm-full"),
      ],
      [
        "create 1,000 files, end to end: exec wall ÷ the disk's exec wall",
        `≤ ${endToEndMax.create}`,
        endToEndCell(endToEnd(r, "create", "native"), endToEndMax.create),
        endToEndCell(endToEnd(r, "create", "FUSE")),
        published("create"),
      ],
      [
        "first command (`true`) in a 36,000-file workspace written by the API, client wall",
        `≤ ${firstExecMaxMs / 1000} s`,
        first(r.native, true),
        first(r.fuse, false),
        formatMs(lastFuse.firstExecTreeMs),
      ],
      [
        "daemon RssAnon with 36,000 files, after that first command",
        `≤ ${treeRssMaxMiB} MiB`,
        memoryCell(r.native.tree.before, true),
        memoryCell(r.fuse.tree.before, false),
        `${lastFuse.treeRssMiB} MiB`,
      ],
      [
        "daemon RssAnon with 36,000 files, after `find /workspace`",
        `≤ ${treeRssMaxMiB} MiB`,
        memoryCell(r.native.tree.after, true),
        memoryCell(r.fuse.tree.after, false),
        `${lastFuse.treeAfterFindRssMiB} MiB`,
      ],
      [
        "`find /workspace` over the 36,000 files, in the box",
        "",
        `${formatMs(r.native.tree.findMs)} (${r.native.tree.entries.toLocaleString("en")} entries)`,
        `${formatMs(r.fuse.tree.findMs)} (${r.fuse.tree.entries.toLocaleString("en")} entries)`,
        formatMs(lastFuse.treeFindMs),
      ],
      [
        "daemon RssAnon, empty workspace after its first command",
        "",
        memoryCell(r.native.empty, false),
        memoryCell(r.fuse.empty, false),
        `${lastFuse.emptyRssMiB} MiB`,
      ],
      [
        "cold start: new workspace → first `echo ok` answered, p50 (p90)",
        "",
        `${formatMs(r.native.cold.p50Ms)} (${formatMs(r.native.cold.p90Ms)})`,
        `${formatMs(r.fuse.cold.p50Ms)} (${formatMs(r.fuse.cold.p90Ms)})`,
        formatMs(lastFuse.coldStartP50Ms),
      ],
      [
        "warm `echo ok` round trip, p50 (p90)",
        "",
        `${formatMs(r.native.warm.p50Ms)} (${formatMs(r.native.warm.p90Ms)})`,
        `${formatMs(r.fuse.warm.p50Ms)} (${formatMs(r.fuse.warm.p90Ms)})`,
        formatMs(lastFuse.warmEchoP50Ms),
      ],
    ],
  );
}

const familyTitles: Record<Exclude<ScenarioFamily, "tools">, string> = {
  metadata: "metadata (create, stat, rm, mkdir, find)",
  io: "64 MiB I/O (write, read, copy, overwrite)",
  npmFull: "full `npm install`",
};

function seedTable(r: SectionInput): string {
  const range = (family: ScenarioFamily, label: "native" | "FUSE") => {
    const ratios = r.results
      .filter((x) => x.scenario.family === family)
      .map((x) => ratioOf(x, label, `${label} disk`))
      .filter((x): x is number => x !== undefined);
    if (!ratios.length) return "—";
    const [lo, hi] = [Math.min(...ratios), Math.max(...ratios)];
    return lo === hi ? `${lo.toFixed(2)}×` : `${lo.toFixed(2)}–${hi.toFixed(2)}×`;
  };
  return table(
    ["scenarios", "the seed (published)", "native ÷ disk", "FUSE ÷ disk"],
    (Object.keys(familyTitles) as (keyof typeof familyTitles)[]).map((family) => [
      familyTitles[family],
      seed[family],
      range(family, "native"),
      range(family, "FUSE"),
    ]),
  );
}

function summary(r: SectionInput): string {
  const verdicts = nativeVerdicts(r).filter((v) => v.met !== undefined);
  const missed = verdicts.filter((v) => !v.met);
  return (
    `Native ÷ disk targets met: ${verdicts.length - missed.length} of ${verdicts.length}.` +
    (missed.length
      ? ` Missed: ${missed.map((v) => `${v.title} (${v.ratio?.toFixed(2)} against ≤ ${v.targetMax})`).join("; ")}.`
      : "")
  );
}

/** Which scenarios the FUSE fallback is slower in than on the published date, by time and by FUSE ÷ tmpfs. */
function fuseSummary(r: SectionInput): string {
  const slower = (normalised: boolean) =>
    r.results.flatMap((result) => {
      const id = result.scenario.id;
      const now = medianOf(result, "FUSE", "timedMs");
      const nowTmpfs = medianOf(result, "FUSE tmpfs", "timedMs");
      const then = lastFuse.timedMs[id];
      const thenTmpfs = lastFuse.tmpfsMs[id];
      if (now === undefined || then === undefined || !nowTmpfs || !thenTmpfs) return [];
      const ratio = normalised ? now / nowTmpfs / (then / thenTmpfs) : now / then;
      return ratio > 1 ? [`${result.scenario.title} (${ratio.toFixed(2)}×)`] : [];
    });
  const list = (items: string[]) => (items.length ? items.join("; ") : "none");
  return [
    `Slower than on ${lastFuse.date} by time: ${list(slower(false))}.`,
    `Slower by FUSE ÷ tmpfs (the machine's own speed taken out): ${list(slower(true))}.`,
  ].join(" ");
}

export function renderSection(r: SectionInput): string {
  const fs = (m: ModeRun, root: string) => m.fsTypes[root] ?? "?";
  return [
    "## Container filesystem (issues 7 and 19)",
    "",
    "`npm run bench` (this section alone: `node bench/run.ts container`, which replaces only it). Two platforms",
    "run side by side, one whose computers use the **native** mount (`COMPUTERD_MOUNT_MODE=native`) and one",
    "forced to the **FUSE** fallback (`COMPUTERD_MOUNT_MODE=fuse`); each box has three targets, and every",
    "scenario runs on all six in the same minutes (targets alternate, their order rotating each round, one",
    "warm-up each first; the table shows medians). The filesystems:",
    "",
    `- **native**: \`${r.roots.mount}\` (${fs(r.native, r.roots.mount)}), the computer's own ext4 on a ${nativeLimits.imageBytes / 2 ** 30} GiB sparse loop image whose file sits on`,
    `  the host's ${r.disks.host}, with the fanotify helper's pre-content and journal`,
    "  groups marked on it; changes are pushed to the workspace object as they happen and the exec answers once",
    "  they are committed.",
    `- **FUSE**: \`${r.roots.mount}\` (${fs(r.fuse, r.roots.mount)}), computerd's FUSE passthrough over a replica directory on the`,
    `  platform's state disk, ${r.disks.fuseState}: a loop image made like the box's disk (below), since the replica makes and`,
    "  removes the workspace's files on the filesystem that holds the state, and an ext4 without a journal spends",
    "  several times a create's own cost skipping recently freed inodes (bench/container/scratch.ts, describeDisk).",
    `- **disk**: \`${r.roots.disk}\` (${fs(r.native, r.roots.disk)}), the box's own disk: a fresh ext4 loop image made like the native one`,
    "  (container/src/native/disk.ts's mkfs and mount options, its file on the same host filesystem), without",
    "  fanotify or sync, one per box, bound by computerd only for this benchmark (`COMPUTERD_BOX_SCRATCH`). A",
    '  fresh loop ext4 creates files several times faster than the host\'s root ext4 (the 2026-11-29 "disk").',
    `- **tmpfs**: \`${r.roots.tmpfs}\` (${fs(r.native, r.roots.tmpfs)}), the box's private /tmp.`,
    "",
    "(In parentheses, the type `stat -f` prints inside the box; it calls ext4 “ext2/ext3”.)",
    "",
    "The time is taken inside the box (bash `$EPOCHREALTIME` around the timed script), so neither the API round",
    "trip nor the push after the command counts; the last column is the client's wall time of the same exec,",
    "which includes both. Each run is setup (untimed exec) → timed exec → cleanup (untimed exec). No fsync",
    "anywhere; the 64 MiB writes copy a random file from tmpfs with `dd bs=1M`; reads read a file written by the",
    "setup exec (for the native mount a local, hydrated file). The npm runs of a box share one cache on its disk,",
    "primed by the warm-up run (`--prefer-offline`); measured runs use `--offline`. The full install is",
    "bench/container/project (package.json + package-lock.json). Plan `scale` (1.8 cores, 4 GiB per computer).",
    ...(r.only ? ["", `**Partial run**: only ${r.only.join(", ")} (BENCH_CONTAINER_ONLY).`] : []),
    "",
    r.host,
    `Run ${r.startedAt.toISOString()} → ${r.endedAt.toISOString()}. Host load (1, 5, 15 min) at start ${r.hostLoad.start}, at end ${r.hostLoad.end}.`,
    `Native box at start: ${r.native.boxBefore}; at end: load ${r.native.boxAfter.split("load ")[1] ?? "?"}.`,
    `FUSE box at start: ${r.fuse.boxBefore}; at end: load ${r.fuse.boxAfter.split("load ")[1] ?? "?"}.`,
    "",
    scenarioTable(r),
    "",
    summary(r),
    failures(r.results),
    "",
    `### The FUSE fallback against ${lastFuse.date}`,
    "",
    "The fallback must not be slower than the last published run (before the sandbox and the native mode). That",
    "run's tmpfs is beside it: a box on today's machine is not the box of then, so FUSE ÷ tmpfs is compared too.",
    "",
    fuseAgainstPublished(r),
    "",
    fuseSummary(r),
    "",
    "### End to end, start-up and daemon memory",
    "",
    platformTable(r),
    "",
    "The 36,000 files are written through the API's batch route into a workspace that never had a computer, so the",
    `first command waits for the daemon to mount all of them (native ${formatMs(r.native.tree.writeTreeMs)}, FUSE ${formatMs(r.fuse.tree.writeTreeMs)} to write them).`,
    "Memory is read from /proc on the host, of the computerd process serving the workspace plus, in the native",
    "mode, its fanotify helper. The first figure, judged against the target, is their RssAnon (heaps, stacks:",
    "the memory the daemon itself holds); VmRSS adds the node binary's file pages (about 55 MiB, shared with",
    "every Node process on the host) and peak is their VmHWM. The FUSE column of 2026-11-29 was VmRSS. After the",
    "first command it is read once the daemon has settled (two readings 500 ms apart agree): the collection that",
    "ends a large walk runs just after that command's answer.",
    "",
    "### The seed's published figures",
    "",
    "The seed project's own headline benchmark, mount ÷ disk for the same scenarios, beside this run's ranges:",
    "",
    seedTable(r),
    "",
    r.fanotify,
  ].join("\n");
}
