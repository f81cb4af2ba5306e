/**
 * WorkspaceDO: one per workspace, named `<tenantId>:<workspaceId>` (names.ts) by the gateway
 * from the verified credential. A thin RPC shell over the modules that do the work: the
 * filesystem (vfs/), runs from start to end (execs/ExecRunner.ts, with the executors from
 * execs/runExecutors.ts and the tenant's ledger from execs/runLedger.ts), forks (forks.ts,
 * unlistedFork.ts) and publishing (publishing.ts). Every method returns expected failures
 * (ENOENT, EEXIST…) as values, because wrangler dev logs any error thrown across RPC as
 * uncaught even when the caller handles it.
 *
 * Mutations answer with the workspace's exact counters (`stats`) so the gateway can mirror
 * them into the D1 index without a second call. Garbage (chunks no file uses) is reclaimed
 * by the alarm, `gcDelayMs` after it appears, a bounded amount per run.
 *
 * Every method that takes a path also takes the caller's path prefix (null for the whole
 * workspace): with one, it works on the confined view (ConfinedVfs), which answers EACCES
 * for any path outside the prefix, also through symlinks, checked under the same lock as
 * the operation. The gateway passes the credential's prefix on every call.
 */
import { DurableObject } from "cloudflare:workers";
import { type Access, actorOf, type Caller, type Prefix, prefixOf } from "./callers.ts";
import {
  answerable,
  type ExecRunner,
  type Granted,
  type RunAnswer,
  type RunOptions,
  type StartExec,
} from "./execs/ExecRunner.ts";
import type { ExecRecord } from "./execs/records.ts";
import type { ForkRefusal, WorkspaceForks } from "./forks.ts";
import { type ImageModel, imageModelFrom } from "./images.ts";
import type { WorkspaceMaintenance } from "./maintenance.ts";
import { ownerOf, type WorkspaceOwner } from "./names.ts";
import { buildParts, hasTables, type Parts } from "./parts.ts";
import { type ShareRequest, WorkspacePublishing } from "./publishing.ts";
import type { Reported, WorkspaceStats } from "./stats.ts";
import { snapshotQuotaRefusal, tenantVersionTerms } from "./versionTerms.ts";
import { ConfinedVfs, type VfsOps } from "./vfs/ConfinedVfs.ts";
import type { FsFailure, FsResult } from "./vfs/errors.ts";
import type { ForkCursor } from "./vfs/forks/export.ts";
import type { ExportAnswer } from "./vfs/forks/fork.ts";
import type { ForkRead } from "./vfs/forks/reads.ts";
import type { BatchOp } from "./vfs/ops/batch.ts";
import type { FindOptions } from "./vfs/ops/find.ts";
import type { GrepOptions } from "./vfs/ops/grep.ts";
import type { ListOptions } from "./vfs/ops/list.ts";
import type { ReadOptions } from "./vfs/ops/read.ts";
import type { RemoveOptions } from "./vfs/ops/remove.ts";
import type { WriteOptions } from "./vfs/ops/write.ts";
import type { PreciseTime } from "./vfs/times.ts";
import type { Vfs } from "./vfs/Vfs.ts";
import type { Snapshot } from "./vfs/versions/snapshots.ts";

export type { Caller, ForkRefusal, Reported, WorkspaceStats };

type WithStats<T> = ({ ok: true } & T & Reported) | FsFailure;

export class WorkspaceDO extends DurableObject<Env> {
  /**
   * The deployment's text-to-image model for `ws:ai` (images.ts), or null. A field, so the
   * tests can stand a fake binding in for Workers AI, which cannot run on their machine.
   */
  imageModel: ImageModel | null = imageModelFrom(this.env as Env & { AI_IMAGE_MODEL?: string });

  private parts: Parts | null = null;
  get vfs(): Vfs {
    return this.built().vfs;
  }
  get execs(): ExecRunner {
    return this.built().execs;
  }
  get forks(): WorkspaceForks {
    return this.built().forks;
  }
  private get maintenance(): WorkspaceMaintenance {
    return this.built().maintenance;
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // An object that has stored nothing stays so until it is used: a request for a workspace
    // the tenant does not have must not leave tables behind (a run reaches `exec` only
    // through the tenant's object, which knows its workspaces).
    if (hasTables(ctx.storage.sql)) this.built();
  }

  private built(): Parts {
    this.parts ??= buildParts({
      ctx: this.ctx,
      env: this.env,
      historyWindowMs: async () => (await this.versionTerms()).historyWindowMs,
      owner: () => this.owner(),
      publishing: () => this.publishing(),
      imageModel: () => this.imageModel,
      counters: () => this.counters(),
    });
    return this.parts;
  }

  // ── execution ───────────────────────────────────────────────────────────────────────────
  /**
   * Runs a command that holds its slot: only the tenant's object calls this (TenantDO.exec,
   * tenants/account/runs.ts), once it admitted the request, found the workspace in the
   * tenant's list and granted the run's slot. The answer carries the workspace's counters
   * after the run (`stats`): the tenant's object bills its size from them and the gateway
   * mirrors them into its index, neither asking again.
   */
  async exec(start: StartExec, grant: Granted, options: RunOptions = {}): Promise<RunAnswer> {
    // A run reads and writes this workspace's own rows: a fork's must all be here first.
    await this.forks.ready();
    let snapshotId: string | undefined;
    // Taken once the run holds its slot: "undo the agent's last command" is then one restore to it.
    const snapshot = async () => {
      const taken = await this.createSnapshot(
        { description: `before ${start.execId}`, execId: start.execId },
        start.keyId ? `key:${start.keyId}` : null,
      );
      if (!taken.ok) return { ok: false as const, code: "quota_exceeded" as const, message: taken.message };
      snapshotId = taken.snapshot.id;
      return null;
    };
    const result = await this.execs.start(start, grant, options.snapshot === "before" ? snapshot : undefined);
    if ("ok" in result) return result;
    return answerable({ ...result, ...this.report(), ...(snapshotId ? { snapshotId } : {}) });
  }
  /** A run's whole result, output included: for an answer that left it out (`outputElided`). */
  execResult(execId: string) {
    return this.execs.resultOf(execId);
  }
  execRecord(execId: string) {
    const record = this.execs.records.get(execId);
    return record && this.withSnapshots([record])[0];
  }
  /** Recent runs; under a path prefix, only runs confined at or under it (see ExecRecord.pathPrefix). */
  listExecs(limit: number, cursor?: string, prefix: Prefix = null) {
    const page = this.execs.records.list(limit, cursor, prefix);
    return { ...page, data: this.withSnapshots(page.data) };
  }
  /** Each run with the snapshot taken just before it (`snapshot: "before"`), while that snapshot exists. */
  private withSnapshots(records: ExecRecord[]): (ExecRecord & { snapshotId: string | null })[] {
    const before = this.vfs.snapshotsBeforeRuns(records.map((record) => record.id));
    return records.map((record) => ({ ...record, snapshotId: before.get(record.id) ?? null }));
  }
  execOutput(execId: string, after: number, limit?: number) {
    return this.execs.records.output(execId, after, limit);
  }
  watchExec(execId: string, after: number) {
    return this.execs.watch(execId, after);
  }
  async killExec(execId: string) {
    const record = await this.execs.kill(execId);
    return record && this.withSnapshots([record])[0];
  }

  private ownerCache: WorkspaceOwner | undefined;
  /** The tenant and workspace this object's name encodes: who its runs bill and publish for. */
  private owner(): WorkspaceOwner {
    this.ownerCache ??= ownerOf(this.ctx.id.name);
    return this.ownerCache;
  }

  // ── publishing ──────────────────────────────────────────────────────────────────────────
  /** Publishes a file or directory as an artifact of this workspace's tenant (see publishing.ts). */
  publishArtifact(path: string, prefix: Prefix = null) {
    return this.forks.whole(() => this.publishing().publish(path, prefix));
  }
  /** Makes a share link to one file. */
  shareFile(path: string, request: ShareRequest, prefix: Prefix = null) {
    return this.forks.whole(() => this.publishing().share(path, request, prefix));
  }

  private publisher: WorkspacePublishing | undefined;
  /** Made on first use: the owner comes from this object's name, which only named objects have. */
  private publishing(): WorkspacePublishing {
    this.publisher ??= new WorkspacePublishing(this.env, this.vfs, this.owner(), (p) => this.fs(p));
    return this.publisher;
  }

  // ── reads ───────────────────────────────────────────────────────────────────────────────
  // A fork whose rows are still arriving has these answered by its source, and the reads
  // below that need its own rows (changes, versions) once they are here (forks.ts).
  readFile(path: string, options?: ReadOptions, access: Access = null) {
    return this.routed(access, { op: "read", path, options }, (fs) => fs.read(path, options));
  }
  stat(path: string, access: Access = null) {
    return this.routed(access, { op: "stat", path }, (fs) => fs.stat(path));
  }
  lstat(path: string, access: Access = null) {
    return this.routed(access, { op: "lstat", path }, (fs) => fs.lstat(path));
  }
  readlink(path: string, access: Access = null) {
    return this.routed(access, { op: "readlink", path }, (fs) => fs.readlink(path));
  }
  list(path: string, options?: ListOptions, access: Access = null) {
    return this.routed(access, { op: "list", path, options }, (fs) => fs.list(path, options));
  }
  find(path: string, options?: FindOptions, access: Access = null) {
    return this.routed(access, { op: "find", path, options }, (fs) => fs.find(path, options));
  }
  grep(pattern: string, path: string, options?: GrepOptions, access: Access = null) {
    return this.routed(access, { op: "grep", pattern, path, options }, (fs) => fs.grep(pattern, path, options));
  }
  changesSince(rev: number, limit?: number) {
    return this.forks.whole(() => this.vfs.changesSince(rev, limit));
  }
  /** The exact size and file count (cheap; what the index mirrors). */
  counters(): WorkspaceStats {
    return { ...this.vfs.counters(), uniqueBytes: this.vfs.uniqueBytes(), revision: this.vfs.revision() };
  }

  private lastReported: WorkspaceStats | null = null;
  /** The counters now, with the ones last answered; the next answer compares with these. */
  private report(): Reported {
    const previous = this.lastReported;
    this.lastReported = this.counters();
    return { stats: this.lastReported, previous };
  }
  stats() {
    return this.forks.whole(() => this.vfs.stats());
  }

  // ── mutations ───────────────────────────────────────────────────────────────────────────
  writeFile(
    path: string,
    body: ReadableStream<Uint8Array> | Uint8Array,
    options?: WriteOptions,
    caller: Access = null,
  ) {
    return this.change(caller, (fs) => fs.write(path, body, options));
  }
  truncate(path: string, size: number, caller: Access = null) {
    return this.change(caller, (fs) => fs.truncate(path, size));
  }
  mkdir(path: string, options?: { recursive?: boolean; mode?: number }, caller: Access = null) {
    return this.change(caller, (fs) => fs.mkdir(path, options));
  }
  remove(path: string, options?: RemoveOptions, caller: Access = null) {
    return this.change(caller, (fs) => fs.remove(path, options));
  }
  move(from: string, to: string, options?: { overwrite?: boolean }, caller: Access = null) {
    return this.change(caller, (fs) => fs.move(from, to, options));
  }
  copy(from: string, to: string, options?: { overwrite?: boolean }, caller: Access = null) {
    return this.change(caller, (fs) => fs.copy(from, to, options));
  }
  symlink(target: string, path: string, caller: Access = null) {
    return this.change(caller, (fs) => fs.symlink(target, path));
  }
  chmod(path: string, mode: number, caller: Access = null) {
    return this.change(caller, (fs) => fs.chmod(path, mode));
  }
  chown(path: string, owner: { uid?: number; gid?: number }, options?: { follow?: boolean }, caller: Access = null) {
    return this.change(caller, (fs) => fs.chown(path, owner, options));
  }
  utimes(path: string, mtime: PreciseTime | "now", options?: { follow?: boolean }, caller: Access = null) {
    return this.change(caller, (fs) => fs.utimes(path, mtime, options));
  }
  /** A hard link (`link` is taken by the computer link above). */
  hardLink(existing: string, path: string, caller: Access = null) {
    return this.change(caller, (fs) => fs.link(existing, path));
  }
  batch(ops: BatchOp[], caller: Access = null) {
    return this.change(caller, (fs) => fs.batch(ops));
  }

  // ── versions (vfs/versions/, docs/vfs.md "Versions") ────────────────────────────────────
  // Every one acts on the whole workspace: the gateway refuses them to confined credentials.

  /** The tenant plan's history window and snapshot quota (versionTerms.ts). */
  private readonly versionTerms = tenantVersionTerms(this.env, this.ctx.id.name);

  /** Pins the current revision; refused (as a value) when the plan's snapshots per workspace are taken. */
  async createSnapshot(
    fields: { name?: string; description?: string; execId?: string },
    actor: string | null = null,
  ): Promise<{ ok: true; snapshot: Snapshot } | { ok: false; code: "quota_exceeded"; message: string }> {
    const refused = await snapshotQuotaRefusal(this.versionTerms, this.vfs.snapshotCount());
    if (refused !== null) return { ok: false, code: "quota_exceeded", message: refused };
    const snapshot = await this.vfs.actingAs(actor, () => this.vfs.snapshot(fields));
    return { ok: true, snapshot };
  }
  listSnapshots(limit: number, cursor?: string) {
    return this.vfs.listSnapshots({ limit, cursor });
  }
  getSnapshot(id: string) {
    return this.vfs.getSnapshot(id);
  }
  async deleteSnapshot(id: string): Promise<boolean> {
    const deleted = await this.vfs.deleteSnapshot(id);
    if (deleted) await this.maintenance.arm();
    return deleted;
  }
  readFileAt(ref: string, path: string, options?: ReadOptions) {
    return this.forks.whole(() => this.vfs.readAt(ref, path, options));
  }
  statAt(ref: string, path: string, follow = true) {
    return this.forks.whole(() => this.vfs.statAt(ref, path, follow));
  }
  /** A directory's entries at a version (its subtree with `recursive`), a page at a time. */
  listAt(
    ref: string,
    path: string,
    options: { recursive?: boolean; limit?: number; cursor?: string | undefined } = {},
  ) {
    return this.forks.whole(() => this.vfs.listAt(ref, path, options));
  }
  findAt(ref: string, path: string, options?: FindOptions) {
    return this.forks.whole(() => this.vfs.findAt(ref, path, options));
  }
  grepAt(ref: string, pattern: string, path: string, options?: GrepOptions) {
    return this.forks.whole(() => this.vfs.grepAt(ref, pattern, path, options));
  }
  /** The differences between two versions; `path` keeps what is at or under it. */
  diff(from: string, to: string, patch: boolean, path?: string) {
    return this.forks.whole(() => this.vfs.diff(from, to, { patch, ...(path === undefined ? {} : { path }) }));
  }
  history(path: string) {
    return this.forks.whole(() => this.vfs.history(path));
  }
  restore(ref: string, actor: string | null = null) {
    return this.after(this.vfs.actingAs(actor, () => this.vfs.restore(ref)));
  }

  /** The filesystem as a caller confined to a prefix sees it; the whole of it for none. */
  private fs(access: Access): VfsOps {
    const prefix = prefixOf(access);
    return prefix === null ? this.vfs : new ConfinedVfs(this.vfs, prefix);
  }

  /** A read: by the source while a fork's rows are arriving and the caller sees the whole tree. */
  private routed<T>(access: Access, request: ForkRead, local: (fs: VfsOps) => T) {
    return this.forks.read(prefixOf(access) !== null, request, () => local(this.fs(access)));
  }

  /** One change for `caller`, recorded as its actor (mutations ask for the lock synchronously, under it). */
  private change<T extends object>(caller: Access, op: (fs: VfsOps) => Promise<FsResult<T>>): Promise<WithStats<T>> {
    return this.after(this.vfs.actingAs(actorOf(caller), () => op(this.fs(caller))));
  }

  // ── forks (forks.ts, docs/vfs.md "Forks") ───────────────────────────────────────────────

  async forkFrom(
    source: string,
    ref: string,
    actor: string | null = null,
  ): Promise<{ ok: true; rev: number; stats: WorkspaceStats } | ForkRefusal> {
    const made = await this.forks.forkFrom(source, ref, actor);
    return made.ok ? { ...made, stats: this.counters() } : made;
  }
  pinForFork(fork: string, ref: string) {
    return this.forks.pinForFork(fork, ref);
  }
  exportFork(fork: string, cursor: ForkCursor | null, callBytesMax?: number): ExportAnswer {
    return this.forks.exportFork(fork, cursor, callBytesMax);
  }
  readForFork(fork: string, request: ForkRead) {
    return this.forks.readForFork(fork, request);
  }
  lendChunks(fork: string, hashes: string[]) {
    return this.forks.lendChunks(fork, hashes);
  }
  releaseFork(fork: string): Promise<boolean> {
    return this.forks.releaseFork(fork);
  }
  adoptSource(source: string): Promise<boolean> {
    return this.forks.adoptSource(source);
  }
  isForkOf(source: string): boolean {
    return this.forks.isForkOf(source);
  }

  // ── deletion and the alarm (maintenance.ts) ──────────────────────────────────────────

  /** Deletes every file and record; the object is empty afterwards. */
  destroy(): Promise<void> {
    return this.maintenance.destroy();
  }

  override alarm(): Promise<void> {
    return this.maintenance.alarm();
  }

  /** Adds the counters to a mutation's result and arms GC if it left garbage behind. */
  private async after<T extends object>(pending: Promise<FsResult<T>> | FsResult<T>): Promise<WithStats<T>> {
    const result = await pending;
    if (!result.ok) return result;
    await this.maintenance.arm();
    return { ...result, ...this.report() };
  }
}
