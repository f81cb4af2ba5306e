/**
 * The production WorkspaceDO plus one benchmark method, so filesystem calls can be timed
 * inside the object (no HTTP, no RPC per call). Only bench/worker binds this class.
 *
 * Timing inside workerd: the clock is read with `performance.now()`, which workerd
 * coarsens to whole milliseconds. In production the clock also stands still during
 * synchronous code and moves only across I/O; local `wrangler dev` lets it move (see
 * `clock()`), but each batch is still bracketed by `await scheduler.wait(0)` so the
 * reading after the batch is taken after a real event-loop turn either way. Batches are
 * 1,000 operations, so the 1 ms step is at most a few per cent of a batch.
 */
import { WorkspaceDO } from "../../tenants/workspace/WorkspaceDO.ts";

export type FsBenchOp = "write" | "stat" | "list" | "read" | "remove" | "writeLarge" | "readLarge";

export interface FsBenchParams {
  /** Small files per batch (write, stat, read, remove). */
  files: number;
  /** Bytes in each small file. */
  smallFileBytes: number;
  /** Listings of the whole directory per batch; one listing is too short for a 1 ms clock. */
  listRepeats: number;
  /** Size of the large file, written as a stream of 1 MiB pieces. */
  largeMiB: number;
}

export interface PhaseResult {
  /** Milliseconds measured inside the object around the whole batch. */
  elapsedMs: number;
  /** Operations run (0 for a baseline call). */
  ops: number;
  /** Bytes moved, to check the work happened. */
  bytes: number;
  /** SQL statements the batch ran, to explain where its time went. */
  statements: number;
}

export interface ClockProbe {
  /** The smallest step `performance.now()` was seen to take. */
  resolutionMs: number;
  /** How far the clock moved across a ~20 ms busy loop with no await in it. */
  syncBusyLoopMs: number;
  /** How far it moved across the same loop followed by `await scheduler.wait(0)`. */
  busyLoopThenWaitMs: number;
  /** Mean cost of the cheapest statement, `SELECT 1`, through `sql.exec`: the floor under every VFS call. */
  sqlExecUs: number;
}

const MiB = 1024 * 1024;
export const smallDir = "/d";
export const smallPath = (i: number) => `${smallDir}/f${i}.txt`;
const largePath = "/big.bin";

/** `bytes` of small-file content that differs per file, as real files do (chunks are deduplicated). */
export function smallContent(i: number, bytes: number): Uint8Array {
  return new TextEncoder().encode(`file ${i} `.padEnd(bytes, "x"));
}

/** A boundary that yields to the event loop, after which the clock is current. */
const tick = async () => {
  await scheduler.wait(0);
  return performance.now();
};

export class BenchWorkspaceDO extends WorkspaceDO {
  private large: Uint8Array[] = [];
  private statements = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The bench's objects belong to no tenant (this Worker has no TENANT binding): the
    // history window is the one the bench sets, not a plan's. Asking a missing tenant
    // failed, and was logged, before every mutation, which made filling take minutes.
    this.vfs.keepHistoryFor(async () => this.vfs.historyWindowMs());
    // Counts every statement the VFS runs. The wrapper is one extra JavaScript call per
    // statement, nanoseconds against the microseconds a statement costs.
    const sql = this.vfs.store.sql;
    const exec = sql.exec.bind(sql);
    sql.exec = ((query: string, ...bindings: unknown[]) => {
      this.statements++;
      return exec(query, ...bindings);
    }) as SqlStorage["exec"];
  }

  /** Runs `op` (0 times for a baseline call) and returns the time measured inside the object. */
  async benchPhase(op: FsBenchOp, params: FsBenchParams, run: boolean): Promise<PhaseResult> {
    if (op === "writeLarge" && run) this.large = largePieces(params.largeMiB);
    const start = await tick();
    const statementsBefore = this.statements;
    const done = run ? await this.runOp(op, params) : { ops: 0, bytes: 0 };
    const statements = this.statements - statementsBefore;
    const elapsedMs = (await tick()) - start;
    if (op === "writeLarge") this.large = [];
    return { elapsedMs, ...done, statements };
  }

  /**
   * Versions benchmark (bench/versions.bench.ts), step 1: adds files `from`..`to`-1 of
   * `bytes` each, 100 per directory, each with distinct content.
   */
  async versionsFill(from: number, to: number, bytes: number): Promise<{ files: number; sizeBytes: number }> {
    const base = new Uint8Array(bytes);
    for (let at = 0; at < bytes; at += 65_536) crypto.getRandomValues(base.subarray(at, Math.min(bytes, at + 65_536)));
    for (let i = from; i < to; i++) {
      const body = base.slice();
      new DataView(body.buffer).setUint32(0, i);
      const result = await this.vfs.write(versionPath(i), body);
      if (!result.ok) throw new Error(`fill failed: ${JSON.stringify(result)}`);
    }
    return { files: this.vfs.counters().fileCount, sizeBytes: this.vfs.counters().sizeBytes };
  }

  /** Step 2: every measurement of the table that this object can make, in order. */
  async versionsMeasure(edits: number, editBytes: number): Promise<VersionsReport> {
    const vfs = this.vfs;
    const sqlDb = this.ctx.storage.sql;
    const must = <T extends { ok: boolean }>(result: T, what: string): T => {
      if (!result.ok) throw new Error(`${what} failed: ${JSON.stringify(result)}`);
      return result;
    };
    // Snapshot: many in a row, each after a one-file change so each pins its own revision.
    const snapshotMs: number[] = [];
    const taken: string[] = [];
    for (let i = 0; i < 101; i++) {
      must(await vfs.write("/bench-counter", new TextEncoder().encode(String(i))), "counter");
      const start = performance.now();
      taken.push((await vfs.snapshot()).id);
      snapshotMs.push(performance.now() - start);
    }
    const batchStart = await tick();
    for (let i = 0; i < 100; i++) taken.push((await vfs.snapshot()).id);
    const snapshotMeanMs = ((await tick()) - batchStart) / 100;
    for (const id of taken) await vfs.deleteSnapshot(id);
    await drain(vfs);

    // Edits: `edits` files rewritten with `editBytes` changed, after a snapshot.
    const sizeBefore = sqlDb.databaseSize;
    const snap = await vfs.snapshot({ name: "before the edits" });
    for (let i = 0; i < edits; i++) {
      const path = versionPath(i * 7);
      const read = must(await vfs.readBytes(path), "read");
      const body = read.ok ? read.bytes.slice() : new Uint8Array();
      crypto.getRandomValues(body.subarray(0, Math.min(editBytes, body.byteLength)));
      must(await vfs.write(path, body), "edit");
    }
    await drain(vfs);
    const withSnapshot = sqlDb.databaseSize;
    const chunkDataWithSnapshot = chunkDataBytes(sqlDb);

    let start = await tick();
    const diffs = 10;
    let changes = 0;
    for (let i = 0; i < diffs; i++) {
      const diff = await vfs.diff(snap.id);
      if (diff.ok) changes = diff.entries.length;
    }
    const diffMeanMs = ((await tick()) - start) / diffs;
    start = await tick();
    const patch = await vfs.diff(snap.id, "live", { patch: true });
    const patchMs = (await tick()) - start;
    must(patch, "patch");

    // Restore to before the edits, then forward again, then back: each undoes `edits` files.
    const after = await vfs.snapshot({ name: "after the edits" });
    const restoreMs: number[] = [];
    for (const target of [snap.id, after.id, snap.id, after.id]) {
      start = await tick();
      must(await vfs.restore(target), "restore");
      restoreMs.push((await tick()) - start);
    }
    await vfs.deleteSnapshot(after.id);
    await vfs.deleteSnapshot(snap.id);
    await drain(vfs);
    const withoutSnapshot = sqlDb.databaseSize;
    const chunkDataWithoutSnapshot = chunkDataBytes(sqlDb);

    // The write path: small new files with nothing kept, then with the history window on.
    const writes = 1_000;
    const writeMs = async (dir: string) => {
      const t = await tick();
      for (let i = 0; i < writes; i++) must(await vfs.write(`${dir}/f${i}`, smallContent(i, 100)), "write");
      for (let i = 0; i < writes; i++) must(await vfs.write(`${dir}/f${i}`, smallContent(i + 1, 100)), "overwrite");
      return ((await tick()) - t) / (2 * writes);
    };
    const writeNoHistoryMs = await writeMs("/w0");
    await vfs.setHistoryWindow(3_600_000);
    const writeWithHistoryMs = await writeMs("/w1");
    await vfs.setHistoryWindow(0);

    snapshotMs.sort((a, b) => a - b);
    return {
      files: vfs.counters().fileCount,
      sizeBytes: vfs.counters().sizeBytes,
      snapshotP50Ms: snapshotMs[Math.floor(snapshotMs.length / 2)] ?? 0,
      snapshotMeanMs,
      changes,
      diffMeanMs,
      patchMs,
      restoreMs,
      snapshotExtraBytes: withSnapshot - withoutSnapshot,
      snapshotExtraChunkBytes: chunkDataWithSnapshot - chunkDataWithoutSnapshot,
      databaseBytes: { before: sizeBefore, withSnapshot, withoutSnapshot },
      writeNoHistoryMs,
      writeWithHistoryMs,
    };
  }

  clock(): Promise<ClockProbe> {
    return clockProbe(this.ctx.storage.sql);
  }

  private async runOp(op: FsBenchOp, params: FsBenchParams): Promise<{ ops: number; bytes: number }> {
    const vfs = this.vfs;
    let bytes = 0;
    const n = params.files;
    const check = (result: { ok: boolean }, what: string) => {
      if (!result.ok) throw new Error(`${what} failed: ${JSON.stringify(result)}`);
    };
    switch (op) {
      case "write":
        for (let i = 0; i < n; i++) {
          const body = smallContent(i, params.smallFileBytes);
          check(await vfs.write(smallPath(i), body), "write");
          bytes += body.byteLength;
        }
        return { ops: n, bytes };
      case "stat":
        for (let i = 0; i < n; i++) {
          const result = vfs.stat(smallPath(i));
          check(result, "stat");
          if (result.ok) bytes += result.stat.size;
        }
        return { ops: n, bytes };
      case "list":
        for (let r = 0; r < params.listRepeats; r++) {
          const result = vfs.list(smallDir, { limit: n });
          check(result, "list");
          if (result.ok && result.entries.length !== n) throw new Error(`listed ${result.entries.length} entries`);
          bytes += result.ok ? result.entries.length : 0;
        }
        return { ops: params.listRepeats, bytes };
      case "read":
        for (let i = 0; i < n; i++) {
          const result = await vfs.readBytes(smallPath(i));
          check(result, "read");
          if (result.ok) bytes += result.bytes.byteLength;
        }
        return { ops: n, bytes };
      case "remove":
        for (let i = 0; i < n; i++) check(await vfs.remove(smallPath(i)), "remove");
        return { ops: n, bytes: 0 };
      case "writeLarge": {
        const pieces = this.large;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const piece = pieces.shift();
            if (piece) controller.enqueue(piece);
            else controller.close();
          },
        });
        const result = await vfs.write(largePath, body);
        check(result, "large write");
        return { ops: 1, bytes: result.ok ? result.stat.size : 0 };
      }
      case "readLarge": {
        const result = vfs.read(largePath);
        check(result, "large read");
        if (!result.ok) return { ops: 0, bytes: 0 };
        const reader = result.body.getReader();
        for (let piece = await reader.read(); !piece.done; piece = await reader.read()) bytes += piece.value.byteLength;
        return { ops: 1, bytes };
      }
    }
  }
}

export interface VersionsReport {
  files: number;
  sizeBytes: number;
  /** One snapshot, timed alone (1 ms clock), and the mean of 100 in a row. */
  snapshotP50Ms: number;
  snapshotMeanMs: number;
  /** Paths the diff of the edits listed, and its time (mean of 10), JSON and with a patch. */
  changes: number;
  diffMeanMs: number;
  patchMs: number;
  /** Four restores, each setting the edited files back or forward. */
  restoreMs: number[];
  /** Database bytes the snapshot kept after the edits: with it minus after it was deleted and collected. */
  snapshotExtraBytes: number;
  /** The same, counting only the bytes the chunk rows hold (packed or whole), as a check on the database's size. */
  snapshotExtraChunkBytes: number;
  databaseBytes: { before: number; withSnapshot: number; withoutSnapshot: number };
  /** Mean milliseconds per small write (half new files, half overwrites), without and with the history window. */
  writeNoHistoryMs: number;
  writeWithHistoryMs: number;
}

export const versionPath = (i: number) => `/v/d${Math.floor(i / 100)}/f${i}.bin`;

function chunkDataBytes(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT coalesce(sum(length(data)), 0) AS n FROM blobs").one().n;
}

async function drain(vfs: WorkspaceDO["vfs"]): Promise<void> {
  for (let pass = 0; pass < 10_000; pass++) if (!(await vfs.maintain()).remaining) return;
}

/** 1 MiB pieces of random bytes, each made distinct so no 512 KiB chunk repeats. */
function largePieces(mib: number): Uint8Array[] {
  const seed = new Uint8Array(MiB);
  for (let at = 0; at < MiB; at += 65_536) crypto.getRandomValues(seed.subarray(at, at + 65_536));
  return Array.from({ length: mib }, (_, i) => {
    const piece = seed.slice();
    const view = new DataView(piece.buffer);
    for (let at = 0; at < MiB; at += 64 * 1024) view.setUint32(at, i);
    return piece;
  });
}

async function clockProbe(sql: SqlStorage): Promise<ClockProbe> {
  let resolutionMs = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 5; k++) {
    const first = performance.now();
    let next = first;
    for (let spins = 0; next === first && spins < 50_000_000; spins++) next = performance.now();
    if (next > first) resolutionMs = Math.min(resolutionMs, next - first);
  }
  const busy = (ms: number) => {
    // Date.now() also moves only across I/O in production, so bound the loop by iterations too.
    const end = Date.now() + ms;
    for (let spins = 0; Date.now() < end && spins < 100_000_000; spins++);
  };
  let start = performance.now();
  busy(20);
  const syncBusyLoopMs = performance.now() - start;
  start = await tick();
  busy(20);
  const busyLoopThenWaitMs = (await tick()) - start;
  const statements = 10_000;
  start = await tick();
  for (let i = 0; i < statements; i++) sql.exec("SELECT 1").toArray();
  const sqlExecUs = (((await tick()) - start) * 1000) / statements;
  return { resolutionMs, syncBusyLoopMs, busyLoopThenWaitMs, sqlExecUs };
}
