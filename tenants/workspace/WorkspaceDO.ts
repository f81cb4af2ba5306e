/**
 * WorkspaceDO: one per workspace, named `<tenantId>:<workspaceId>` by the gateway from the
 * verified credential. It owns the workspace's filesystem (vfs/), and later its exec
 * records. Every method returns expected failures (ENOENT, EEXIST…) as values, because
 * wrangler dev logs any error thrown across RPC as uncaught even when the caller handles it.
 *
 * Mutations answer with the workspace's exact counters (`stats`) so the gateway can mirror
 * them into the D1 index without a second call. Garbage (chunks no file uses) is reclaimed
 * by the alarm, `gcDelayMs` after it appears, a bounded amount per run.
 */
import { DurableObject } from "cloudflare:workers";
import type { Executor, ExecutorName } from "../../executors/contract.ts";
import { createExecutor } from "../../executors/registry.ts";
import { ExecRunner, type StartExec } from "./execs/ExecRunner.ts";
import { ExecRecords, migrateExecs } from "./execs/records.ts";
import { WorkspaceFsTarget } from "./execs/WorkspaceFsTarget.ts";
import { workspaceLimits } from "./limits.ts";
import type { FsFailure, FsResult } from "./vfs/errors.ts";
import type { BatchOp } from "./vfs/ops/batch.ts";
import type { FindOptions } from "./vfs/ops/find.ts";
import type { GrepOptions } from "./vfs/ops/grep.ts";
import type { ListOptions } from "./vfs/ops/list.ts";
import type { ReadOptions } from "./vfs/ops/read.ts";
import type { RemoveOptions } from "./vfs/ops/remove.ts";
import type { WriteOptions } from "./vfs/ops/write.ts";
import { Vfs } from "./vfs/Vfs.ts";

export interface WorkspaceStats {
  sizeBytes: number;
  fileCount: number;
}

type WithStats<T> = ({ ok: true } & T & { stats: WorkspaceStats }) | FsFailure;

export class WorkspaceDO extends DurableObject<Env> {
  readonly vfs: Vfs;
  readonly execs: ExecRunner;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.vfs = new Vfs(ctx.storage.sql, (fn) => ctx.storage.transactionSync(fn));
    migrateExecs(ctx.storage.sql);
    const records = new ExecRecords(ctx.storage.sql);
    // Runs recorded as running belong to an instance that is gone: end them honestly.
    records.abandonRunning();
    this.execs = new ExecRunner(
      records,
      (start) => this.executor(start.executor, start.egress, start.tenantId),
      (start, record) => this.meterRun(start, record.durationMs ?? 0),
      (work) => ctx.waitUntil(work),
    );
  }

  // ── execution ───────────────────────────────────────────────────────────────────────────
  exec(start: StartExec) {
    return this.execs.start(start);
  }
  execRecord(execId: string) {
    return this.execs.records.get(execId);
  }
  listExecs(limit: number, cursor?: string) {
    return this.execs.records.list(limit, cursor);
  }
  execOutput(execId: string, after: number, limit?: number) {
    return this.execs.records.output(execId, after, limit);
  }
  watchExec(execId: string, after: number) {
    return this.execs.watch(execId, after);
  }
  killExec(execId: string) {
    return this.execs.kill(execId);
  }

  /** The executor for a run, built over this workspace's filesystem; null when unavailable here. */
  private executor(name: ExecutorName, egress: boolean, tenantId: string): Executor | null {
    return createExecutor(name, {
      loader: this.env.LOADER,
      fs: new WorkspaceFsTarget(this.vfs),
      isolateKey: tenantId,
      egress,
    });
  }

  /** Meters a run as `<executor>_ms` in the tenant's ledger, with the exec id as the event id. */
  private async meterRun(start: StartExec, durationMs: number): Promise<void> {
    await this.env.TENANT.getByName(start.tenantId).record({
      id: start.execId,
      meter: `${start.executor}_ms`,
      quantity: durationMs,
      at: new Date().toISOString(),
      workspaceId: start.workspaceId,
      keyId: start.keyId,
    });
  }

  // ── reads ───────────────────────────────────────────────────────────────────────────────
  readFile(path: string, options?: ReadOptions) {
    return this.vfs.read(path, options);
  }
  stat(path: string) {
    return this.vfs.stat(path);
  }
  lstat(path: string) {
    return this.vfs.lstat(path);
  }
  readlink(path: string) {
    return this.vfs.readlink(path);
  }
  list(path: string, options?: ListOptions) {
    return this.vfs.list(path, options);
  }
  find(path: string, options?: FindOptions) {
    return this.vfs.find(path, options);
  }
  grep(pattern: string, path: string, options?: GrepOptions) {
    return this.vfs.grep(pattern, path, options);
  }
  changesSince(rev: number, limit?: number) {
    return this.vfs.changesSince(rev, limit);
  }
  /** The exact size and file count (cheap; what the index mirrors). */
  counters() {
    return this.vfs.counters();
  }
  stats() {
    return this.vfs.stats();
  }

  // ── mutations ───────────────────────────────────────────────────────────────────────────
  writeFile(path: string, body: ReadableStream<Uint8Array> | Uint8Array, options?: WriteOptions) {
    return this.after(this.vfs.write(path, body, options));
  }
  truncate(path: string, size: number) {
    return this.after(this.vfs.truncate(path, size));
  }
  mkdir(path: string, options?: { recursive?: boolean; mode?: number }) {
    return this.after(this.vfs.mkdir(path, options));
  }
  remove(path: string, options?: RemoveOptions) {
    return this.after(this.vfs.remove(path, options));
  }
  move(from: string, to: string, options?: { overwrite?: boolean }) {
    return this.after(this.vfs.move(from, to, options));
  }
  copy(from: string, to: string, options?: { overwrite?: boolean }) {
    return this.after(this.vfs.copy(from, to, options));
  }
  symlink(target: string, path: string) {
    return this.after(this.vfs.symlink(target, path));
  }
  chmod(path: string, mode: number) {
    return this.after(this.vfs.chmod(path, mode));
  }
  batch(ops: BatchOp[]) {
    return this.after(this.vfs.batch(ops));
  }

  /** Deletes every file and record; the object is empty afterwards. */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    const pass = await this.vfs.maintain();
    if (pass.remaining) await this.ctx.storage.setAlarm(Date.now());
  }

  /** Adds the counters to a mutation's result and arms GC if it left garbage behind. */
  private async after<T extends object>(pending: Promise<FsResult<T>> | FsResult<T>): Promise<WithStats<T>> {
    const result = await pending;
    if (!result.ok) return result;
    if (this.vfs.hasGarbage() && (await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + workspaceLimits.gcDelayMs);
    }
    return { ...result, stats: this.vfs.counters() };
  }
}
