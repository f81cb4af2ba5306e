/**
 * computerd's memory with a 36,000-file workspace, without the platform: the production
 * bundle (.build/computerd/computerd.mjs; `node scripts/build-computerd.ts` makes it) run
 * with the supervisor's V8 flags and malloc settings, native mode, served by the in-memory
 * twin holding the same tree as bench/container/memory.ts writes through the API. It prints
 * RssAnon of computerd and its fanotify helper after the first command and after
 * `find /workspace`, and where computerd's anonymous memory is (its /proc smaps by kind and,
 * through a diagnostic report, V8's heap). A development aid for issue 19, not part of
 * `npm run bench`: `./node_modules/.bin/node bench/container/memoryProbe.ts [rounds]`.
 * Extra computerd flags or environment: PROBE_NODE_FLAGS="--a --b", PROBE_ENV="K=V K2=V2";
 * PROBE_TRACE=1 prints computerd's timestamps of the first command's steps (container/src/trace.ts).
 * Commands need the box's root image: COMPUTERD_ROOTFS=<images dir>/<hash>.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeDirs, mountEnv, openSession, run, startDaemon } from "../../container/src/testing/harness.ts";
import { MemoryWorkspace } from "../../container/src/testing/memoryWorkspace.ts";
import { daemonMallocEnv, daemonNodeFlags } from "../../container/supervisor/limits.ts";
import { childrenOf } from "../../container/supervisor/procfs.ts";
import { treeFiles } from "./memory.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const bundle = process.env.PROBE_BUNDLE ?? join(root, ".build/computerd/computerd.mjs");
const treePath = (i: number) => `/tree/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/f${i}.txt`;
const tracing = process.env.PROBE_TRACE === "1";
const kib = (n: number) => `${(n / 1024).toFixed(1)} MiB`;

function status(pid: number): Record<string, number> {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^(\w+):\s+(\d+) kB$/gm)) out[m[1] ?? ""] = Number(m[2]);
  out.Threads = Number(text.match(/^Threads:\s+(\d+)/m)?.[1] ?? 0);
  return out;
}

/** Anonymous resident KiB of a process by kind of mapping: malloc's heap, big anonymous maps, small ones, stacks. */
function smapsByKind(pid: number): Record<string, number> {
  const text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  const kinds: Record<string, number> = {};
  let kind = "";
  let sizeKiB = 0;
  for (const line of text.split("\n")) {
    const head = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
    if (head) {
      const name = head[1] ?? "";
      kind = name === "" ? "anon" : name.startsWith("[") ? name : "file";
      continue;
    }
    const size = line.match(/^Size:\s+(\d+)/);
    if (size) {
      sizeKiB = Number(size[1]);
      if (kind === "anon")
        kind = `anon ${sizeKiB >= 65536 ? "≥64M" : sizeKiB >= 1024 ? "1–64M" : sizeKiB === 256 ? "256K" : "<1M"}`;
    }
    const anon = line.match(/^Anonymous:\s+(\d+)/);
    if (anon && Number(anon[1]) > 0) kinds[kind] = (kinds[kind] ?? 0) + Number(anon[1]);
  }
  return kinds;
}

/** computerd's trace lines (COMPUTERD_TRACE, container/src/trace.ts), in ms since the session was opened. */
function printTrace(stderr: string, startMs: number): void {
  for (const m of stderr.matchAll(/^trace (\d+\.\d) (.*)$/gm)) {
    console.log(`    ${(Number(m[1]) - startMs).toFixed(0).padStart(6)} ms  ${m[2]}`);
  }
}

/** A process's CPU time (user + system) so far, in ms, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const helperOf = (pid: number) =>
  childrenOf(pid).find((p) => readFileSync(`/proc/${p}/comm`, "utf8").startsWith("cubicle-fanotif"));

interface Sample {
  anon: number;
  helper: number;
  threads: number;
  helperThreads: number;
  kinds: Record<string, number>;
}

function sample(pid: number): Sample {
  const helper = helperOf(pid);
  const s = status(pid);
  const h = helper === undefined ? null : status(helper);
  return {
    anon: s.RssAnon ?? 0,
    helper: h?.RssAnon ?? 0,
    threads: s.Threads ?? 0,
    helperThreads: h?.Threads ?? 0,
    kinds: smapsByKind(pid),
  };
}

/** V8's heap and Node's view of memory, from a diagnostic report the daemon writes on SIGUSR2. */
async function heapReport(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const file = readdirSync(dir).find((f) => !before.has(f));
    if (!file) continue;
    try {
      const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
      const heap = report.javascriptHeap;
      const spaces = Object.entries(heap.heapSpaces as Record<string, { committedMemory: number; used: number }>)
        .filter(([, s]) => s.committedMemory > 0)
        .map(([name, s]) => `${name} ${kib(s.committedMemory / 1024)} (used ${kib(s.used / 1024)})`);
      return `V8 committed ${kib(heap.totalMemory / 1024)}, used ${kib(heap.usedMemory / 1024)}; external ${kib((heap.externalMemory ?? 0) / 1024)}\n    ${spaces.join("; ")}`;
    } catch {
      // Still being written.
    }
  }
  return "no report";
}

async function round(report: boolean): Promise<void> {
  const dirs = await makeDirs();
  const reports = join(dirs.root, "reports");
  mkdirSync(reports);
  const twin = new MemoryWorkspace();
  for (let i = 0; i < treeFiles; i++) twin.writeFile(treePath(i), `file ${i}\n`);
  const flags = (process.env.PROBE_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const reportFlags = report ? ["--report-on-signal", "--report-signal=SIGUSR2", `--report-directory=${reports}`] : [];
  const extraEnv = Object.fromEntries(
    (process.env.PROBE_ENV ?? "")
      .split(" ")
      .filter(Boolean)
      .map((kv) => kv.split("=") as [string, string]),
  );
  // The harness's spawn environment (COMPUTERD_ROOTFS passes through from this process's).
  const daemon = await startDaemon(
    dirs,
    { ...daemonMallocEnv, ...(await mountEnv("native")), ...(tracing ? { COMPUTERD_TRACE: "1" } : {}), ...extraEnv },
    bundle,
    [...daemonNodeFlags, ...flags, ...reportFlags],
  );
  try {
    const pid = daemon.proc.pid ?? 0;
    const helper = helperOf(pid);
    const cpuBefore = { computerd: cpuMs(pid), helper: helper ? cpuMs(helper) : 0, probe: process.cpuUsage() };
    const startMs = performance.timeOrigin + performance.now();
    const session = await openSession(daemon.port, twin);
    const first = await run(session.computer, daemon.mount, "true", { timeoutMs: 300_000 });
    const firstMs = performance.timeOrigin + performance.now() - startMs;
    if (first.outcome.exitCode !== 0) throw new Error(`first command: ${JSON.stringify(first)}`);
    const show = async (when: string) => {
      const s = sample(pid);
      console.log(
        `  ${when}: computerd ${kib(s.anon)} + helper ${kib(s.helper)} = ${kib(s.anon + s.helper)} (threads ${s.threads} / ${s.helperThreads})`,
      );
      console.log(
        `    ${Object.entries(s.kinds)
          .map(([k, v]) => `${k} ${kib(v)}`)
          .join("; ")}`,
      );
      if (report) console.log(`    ${await heapReport(pid, reports)}`);
    };
    const probeCpu = process.cpuUsage(cpuBefore.probe);
    // The walk's collection runs once the command was answered: memory is read after it.
    for (let i = 0; i < 100 && !/pull: collected garbage/.test(daemon.stderr()); i++)
      await new Promise((r) => setTimeout(r, 50));
    console.log(
      `  first command ${(firstMs / 1000).toFixed(2)} s (hello → \`true\` answered); CPU: computerd ${(cpuMs(pid) - cpuBefore.computerd).toFixed(0)} ms, helper ${helper ? (cpuMs(helper) - cpuBefore.helper).toFixed(0) : "-"} ms, this probe (the twin) ${((probeCpu.user + probeCpu.system) / 1000).toFixed(0)} ms`,
    );
    await show("after the first command");
    if (tracing) printTrace(daemon.stderr(), startMs);
    const find = await run(session.computer, daemon.mount, "find /workspace | wc -l", { timeoutMs: 300_000 });
    console.log(`  find: ${find.stdout.trim()} entries`);
    await show("after find");
    if (process.env.PROBE_SMAPS) writeFileSync(process.env.PROBE_SMAPS, readFileSync(`/proc/${pid}/smaps`));
    for (const line of daemon.stderr().match(/pull: (walked the whole workspace|collected garbage).*/g) ?? [])
      console.log(`  ${line}`);
    session.close();
  } finally {
    await daemon.stop();
    rmSync(reports, { recursive: true, force: true });
    await dirs.cleanup();
  }
}

const rounds = Number(process.argv[2] ?? 1);
for (let i = 0; i < rounds; i++) {
  console.log(`round ${i + 1} (load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`);
  await round(process.env.PROBE_REPORT === "1");
}
