/**
 * The benchmark-only Worker behind bench/filesystem.bench.ts. `POST /run` with
 * `FsBenchParams` as JSON creates a fresh workspace object and runs every phase in it,
 * in order (the files `write` creates are the ones the later phases stat, read and remove).
 *
 * Each phase is measured twice: inside the object (`elapsedMs`, see BenchWorkspaceDO),
 * and here around the RPC, minus the median of baseline RPCs that do the same call with
 * no work. The second number includes what the first cannot see: the storage commit the
 * object's output gate waits for before the RPC answers.
 */
import type { ClockProbe, FsBenchOp, FsBenchParams, PhaseResult } from "./BenchWorkspaceDO.ts";
import { BenchWorkspaceDO } from "./BenchWorkspaceDO.ts";

export { BenchWorkspaceDO };

interface BenchEnv {
  WORKSPACE: DurableObjectNamespace<BenchWorkspaceDO>;
}

export interface PhaseReport extends PhaseResult {
  /** Milliseconds around the RPC that did the work, seen from the calling Worker. */
  rpcMs: number;
  /** Median milliseconds of the same RPC doing no work. */
  baselineRpcMs: number;
}

export interface RunReport {
  clock: ClockProbe;
  phases: Record<FsBenchOp, PhaseReport>;
}

const phases: FsBenchOp[] = ["write", "stat", "list", "read", "remove", "writeLarge", "readLarge"];
const baselineCalls = 5;

async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await call();
  return { ms: performance.now() - start, value };
}

async function run(env: BenchEnv, params: FsBenchParams): Promise<RunReport> {
  const stub = env.WORKSPACE.getByName(crypto.randomUUID());
  const clock = await stub.clock();
  const report: Partial<Record<FsBenchOp, PhaseReport>> = {};
  for (const op of phases) {
    const baselines: number[] = [];
    for (let i = 0; i < baselineCalls; i++) baselines.push((await timed(() => stub.benchPhase(op, params, false))).ms);
    baselines.sort((a, b) => a - b);
    const { ms, value } = await timed(() => stub.benchPhase(op, params, true));
    report[op] = { ...value, rpcMs: ms, baselineRpcMs: baselines[Math.floor(baselineCalls / 2)] ?? 0 };
  }
  return { clock, phases: report as Record<FsBenchOp, PhaseReport> };
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return new Response("ok");
    // bench/versions.bench.ts: fill one named workspace in steps, then measure in it.
    if (url.pathname === "/versions/fill" && request.method === "POST") {
      const { name, from, to, bytes } = (await request.json()) as {
        name: string;
        from: number;
        to: number;
        bytes: number;
      };
      return Response.json(await env.WORKSPACE.getByName(name).versionsFill(from, to, bytes));
    }
    if (url.pathname === "/versions/measure" && request.method === "POST") {
      const { name, edits, editBytes } = (await request.json()) as { name: string; edits: number; editBytes: number };
      return Response.json(await env.WORKSPACE.getByName(name).versionsMeasure(edits, editBytes));
    }
    if (url.pathname === "/versions/fork" && request.method === "POST") {
      const { name, runs } = (await request.json()) as { name: string; runs: number };
      return Response.json(await forkTimings(env, name, runs));
    }
    if (url.pathname !== "/run" || request.method !== "POST") return new Response("not found", { status: 404 });
    return Response.json(await run(env, (await request.json()) as FsBenchParams));
  },
} satisfies ExportedHandler<BenchEnv>;

export interface ForkTimings {
  /** Per run: the fork call (the source pins and counts) until the first `ls` of a directory in the fork answered. */
  forkToLsMs: number[];
  /** Per run: the fork call until its rows had all arrived (the background import's end). */
  importedMs: number[];
  /** The first read of a 29 KiB file in the fork once imported, its chunk read through from the source. */
  firstReadMs: number[];
  /** The background copy of every chunk (the first run only), and what it copied. */
  copyAllMs: number;
  entries: number;
  files: number;
}

/**
 * Forks the workspace `name` (bench/versions.bench.ts), times fork → first `ls` (answered by
 * the source while the fork's rows arrive), fork → import done, then a first read through,
 * and once the whole background copy; each fork is deleted after. Timed in this Worker
 * around the RPCs to the fork's object: workerd's clock moves at I/O, and every step here
 * is I/O.
 */
async function forkTimings(env: BenchEnv, name: string, runs: number): Promise<ForkTimings> {
  const tenant = name.split(":")[0] ?? "bench";
  const out: ForkTimings = { forkToLsMs: [], importedMs: [], firstReadMs: [], copyAllMs: 0, entries: 0, files: 0 };
  for (let run = 0; run < runs; run++) {
    const fork = env.WORKSPACE.getByName(`${tenant}:fork-${crypto.randomUUID()}`);
    const start = performance.now();
    const made = await fork.forkFrom(name, "live");
    if (!made.ok) throw new Error(`fork failed: ${JSON.stringify(made)}`);
    const listed = await fork.list("/v/d7");
    if (!listed.ok || listed.entries.length === 0) throw new Error(`ls in the fork failed: ${JSON.stringify(listed)}`);
    out.forkToLsMs.push(performance.now() - start);
    out.files = made.stats.fileCount;
    // stats() needs the fork's own rows: it answers once the import (the alarm's, joined) is done.
    const stats = await fork.stats();
    out.importedMs.push(performance.now() - start);
    if (stats.fileCount !== made.stats.fileCount) throw new Error("the imported fork counts differently");
    const readStart = performance.now();
    const read = await fork.readFile("/v/d7/f700.bin");
    if (!read.ok) throw new Error("read in the fork failed");
    await new Response(read.body).arrayBuffer();
    out.firstReadMs.push(performance.now() - readStart);
    if (run === 0) {
      const copyStart = performance.now();
      if (!(await fork.adoptSource(name))) throw new Error("the fork did not finish copying");
      out.copyAllMs = performance.now() - copyStart;
      out.entries = stats.entryCount;
    }
    await fork.destroy();
  }
  return out;
}
