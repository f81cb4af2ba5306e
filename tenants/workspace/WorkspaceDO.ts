/**
 * WorkspaceDO: one per workspace, named `<tenantId>:<workspaceId>` (names.ts) by the gateway
 * from the verified credential. It owns the workspace's filesystem (vfs/) and its runs from
 * start to end: a run takes its slot in the tenant's ledger, runs, and is metered with the
 * workspace's size after it, all from here (execs/ExecRunner.ts). Every method returns expected failures (ENOENT, EEXIST…) as values, because
 * wrangler dev logs any error thrown across RPC as uncaught even when the caller handles it.
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
import { allowListDigest, type EgressPolicy } from "../../container/wire/egress/allowList.ts";
import { ComputerLink } from "../../executors/container/ComputerLink.ts";
import type { ContainerEgress } from "../../executors/container/ContainerExecutor.ts";
import { type ContainerEnv, containerHostFor } from "../../executors/container/host.ts";
import type { Executor, ExecutorReadiness } from "../../executors/contract.ts";
import { runEgressRecorder } from "../../executors/egress/usage.ts";
import { createExecutor, type Outbound } from "../../executors/registry.ts";
import { PLANS, type VersionTerms } from "../account/plans.ts";
import { database } from "../db.ts";
import { type ExecRefusal, type ExecResult, ExecRunner, type RunLedger, type StartExec } from "./execs/ExecRunner.ts";
import { type ExecRecord, ExecRecords, migrateExecs } from "./execs/records.ts";
import { WorkspaceFsTarget } from "./execs/WorkspaceFsTarget.ts";
import { COMPUTERD_CURSOR, WorkspaceSyncTarget } from "./execs/WorkspaceSyncTarget.ts";
import { WorkspaceToolsTarget } from "./execs/WorkspaceToolsTarget.ts";
import { type ImageModel, imageModelFrom } from "./images.ts";
import { workspaceLimits } from "./limits.ts";
import { ownerOf, parseWorkspaceObjectName, type WorkspaceOwner } from "./names.ts";
import { type ShareRequest, WorkspacePublishing } from "./publishing.ts";
import { checkListing, listingCheckAt, markUnlisted } from "./unlistedFork.ts";
import { ConfinedVfs, type VfsOps } from "./vfs/ConfinedVfs.ts";
import { hasCursor } from "./vfs/changes.ts";
import type { FsFailure, FsResult } from "./vfs/errors.ts";
import type { ForkCursor } from "./vfs/forks/export.ts";
import type { ExportAnswer } from "./vfs/forks/fork.ts";
import type { ChunkLender, LentChunk } from "./vfs/forks/lend.ts";
import type { BatchOp } from "./vfs/ops/batch.ts";
import type { FindOptions } from "./vfs/ops/find.ts";
import type { GrepOptions } from "./vfs/ops/grep.ts";
import type { ListOptions } from "./vfs/ops/list.ts";
import type { ReadOptions } from "./vfs/ops/read.ts";
import type { RemoveOptions } from "./vfs/ops/remove.ts";
import type { WriteOptions } from "./vfs/ops/write.ts";
import type { PreciseTime } from "./vfs/times.ts";
import { Vfs } from "./vfs/Vfs.ts";
import type { Snapshot } from "./vfs/versions/snapshots.ts";

export interface WorkspaceStats {
  sizeBytes: number;
  fileCount: number;
  /** What storage bills: the unique bytes the tree and the snapshots reach (docs/billing.md). */
  uniqueBytes: number;
  /** The filesystem revision these counters are as of, so late reports can be told from new ones. */
  revision: number;
}

/** Why a fork was not made: a filesystem failure (an unknown version: ENOENT), or a quota. */
export type ForkRefusal = FsFailure | { ok: false; code: "quota_exceeded"; message: string };

/** The path prefix a caller is confined to (`/src`), or null for the whole workspace. */
type Prefix = string | null;

/**
 * Who asks for a change: the path prefix they are confined to, and who the change is
 * recorded as in the history (`key:<id>`; null when no key is behind the request).
 */
export interface Caller {
  prefix: Prefix;
  actor: string | null;
}

/** A caller, or just its prefix (the whole workspace for null), recorded with no actor. */
type Access = Prefix | Caller;

const prefixOf = (access: Access): Prefix => (access === null || typeof access === "string" ? access : access.prefix);
const actorOf = (access: Access): string | null =>
  access === null || typeof access === "string" ? null : access.actor;

type WithStats<T> = ({ ok: true } & T & { stats: WorkspaceStats }) | FsFailure;

export class WorkspaceDO extends DurableObject<Env> {
  readonly vfs: Vfs;
  readonly execs: ExecRunner;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.vfs = new Vfs(ctx.storage.sql, (fn) => ctx.storage.transactionSync(fn));
    // The plan's history window applies before this instance records any change (Vfs.keepHistoryFor).
    this.vfs.keepHistoryFor(async () => (await this.versionTerms()).historyWindowMs);
    // Whoever changed the tree (the API, a run, a container's push), what the change left
    // behind (garbage, kept versions) is collected and pruned by the alarm.
    this.vfs.onChange(() =>
      ctx.waitUntil(this.armMaintenance().catch((error) => console.error("arming maintenance", error))),
    );
    migrateExecs(ctx.storage);
    const records = new ExecRecords(ctx.storage.sql);
    // Runs recorded as running belong to an instance that is gone: end them honestly.
    const abandoned = records.abandonRunning();
    if (abandoned.length > 0) ctx.waitUntil(this.releaseSlots(abandoned));
    this.execs = new ExecRunner(
      records,
      (start) => this.executor(start),
      this.runLedger(),
      (work) => ctx.waitUntil(work),
    );
    // A fork still lacking chunks reads them through from its source (vfs/forks/).
    const origin = this.vfs.forkOrigin();
    if (origin) this.vfs.borrowFrom(this.lenderFor(origin.source));
  }

  // ── execution ───────────────────────────────────────────────────────────────────────────
  /**
   * Runs a command, slot to metering. The result carries the workspace's counters after the
   * run (`stats`), so the gateway mirrors them into its index without asking again; storage
   * was already reported to the ledger with the run's time.
   */
  async exec(
    start: StartExec,
    options: { snapshot?: "before" } = {},
  ): Promise<ExecRefusal | (ExecResult & { stats: WorkspaceStats; snapshotId?: string })> {
    let snapshotId: string | undefined;
    if (options.snapshot === "before") {
      // "Undo the agent's last command" is then one restore to this snapshot.
      const taken = await this.createSnapshot(
        { description: `before ${start.execId}`, execId: start.execId },
        start.keyId ? `key:${start.keyId}` : null,
      );
      if (!taken.ok) return { ok: false, code: "quota_exceeded", message: taken.message };
      snapshotId = taken.snapshot.id;
    }
    const result = await this.execs.start(start);
    if ("ok" in result) return result;
    return { ...result, stats: this.counters(), ...(snapshotId ? { snapshotId } : {}) };
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

  /**
   * The deployment's text-to-image model for `ws:ai` (images.ts), or null. A field, so the
   * tests can stand a fake binding in for Workers AI, which cannot run on their machine.
   */
  imageModel: ImageModel | null = imageModelFrom(this.env as Env & { AI_IMAGE_MODEL?: string });

  /** The executor for a run, over this workspace's filesystem confined as the run is; null when unavailable here. */
  private async executor(start: StartExec): Promise<Executor | null> {
    const { tenantId, workspaceId } = this.owner();
    const executor = createExecutor(start.executor, {
      loader: this.env.LOADER,
      fs: new WorkspaceFsTarget(this.vfs, { pathPrefix: start.pathPrefix, actor: `exec:${start.execId}` }),
      tools: new WorkspaceToolsTarget(
        this.publishing(),
        {
          pathPrefix: start.pathPrefix,
          baseUrl: start.baseUrl,
          keyId: start.keyId,
          credentialExpiresAt: start.credentialExpiresAt,
        },
        {
          model: this.imageModel,
          ledger: this.env.TENANT.getByName(tenantId),
          workspaceId,
          executor: start.executor,
        },
      ),
      isolateKey: tenantId,
      outbound: start.egress ? await this.outbound(start, start.egress) : null,
      container: start.executor === "container" ? this.computerLink(start) : null,
    });
    return executor && start.executor === "container" ? this.tracked(executor) : executor;
  }

  private link: ComputerLink | null | undefined;
  /**
   * This workspace's link to its computerd, made on the first container run when the
   * deployment has a container host. From then on every change to the tree, whoever makes
   * it, is announced to a connected computer so its mount follows.
   */
  private computerLink(start: StartExec) {
    if (this.link === undefined) {
      // The secret and supervisor address are deployment secrets or `npm start` vars, not in wrangler.toml.
      const found = containerHostFor(this.env as Env & ContainerEnv);
      const name = this.ctx.id.name;
      const sync = new WorkspaceSyncTarget(this.vfs, () => this.containerActor());
      this.link = found && name ? new ComputerLink(found.host, found.secret, name, sync) : null;
      const link = this.link;
      if (link) this.vfs.onChange((revision) => link.changed(revision));
    }
    if (!this.link) return null;
    return {
      link: this.link,
      pathPrefix: start.pathPrefix,
      egress: this.containerEgress(start),
      revision: () => this.vfs.revision(),
    };
  }

  /** Container runs in progress, by id: a push while exactly one runs is that run's change. */
  private readonly containerRuns = new Set<string>();

  /** Who a container push is recorded as (WorkspaceSyncTarget): the one run in progress, or `container`. */
  private containerActor(): string {
    const [only, ...others] = this.containerRuns;
    return only !== undefined && others.length === 0 ? `exec:${only}` : "container";
  }

  /** The container executor, noting each run while it is in progress (for `containerActor`). */
  private tracked(executor: Executor): Executor {
    const runs = this.containerRuns;
    return {
      async run(request, sink) {
        runs.add(request.execId);
        try {
          return await executor.run(request, sink);
        } finally {
          runs.delete(request.execId);
        }
      },
      kill: (execId) => executor.kill(execId),
      ...(executor.ready ? { ready: () => (executor.ready as () => Promise<ExecutorReadiness>)() } : {}),
    };
  }

  /**
   * A container run's network, when it may have one: its allow list, which computerd's proxy
   * enforces, and its billing: the bytes the proxy counted, as one `egress_bytes` event under
   * the run's own id, attributed as the gateway attributes each request (executors/egress/usage.ts).
   */
  private containerEgress(start: StartExec): ContainerEgress | null {
    if (!start.egress) return null;
    return {
      allow: start.egress.allow,
      record: runEgressRecorder(this.env.TENANT.getByName(this.owner().tenantId), {
        execId: start.execId,
        workspaceId: this.owner().workspaceId,
        keyId: start.keyId,
        executor: start.executor,
      }),
    };
  }

  /**
   * The metering egress gateway for a run that may reach the network (the tenant object
   * admitted the run only if its plan allows egress), bound to who pays for the bytes and
   * to the run's allow list. The attribution names both (the list by its digest), so a warm
   * isolate is only ever reused by runs billed to the same key and allowed the same hosts.
   */
  private async outbound(start: StartExec, egress: EgressPolicy): Promise<Outbound> {
    const { tenantId, workspaceId } = this.owner();
    const { keyId, executor } = start;
    const { allow } = egress;
    const reach = allow === null ? "any" : `allow-${await allowListDigest(allow)}`;
    return {
      fetcher: this.ctx.exports.EgressGateway({ props: { tenantId, workspaceId, keyId, executor, allow } }),
      attribution: `${workspaceId}:${keyId ?? "-"}:${reach}`,
    };
  }

  /** Frees the concurrency slots of runs lost in a restart (they are not billed: the loss was ours). */
  private async releaseSlots(execIds: string[]): Promise<void> {
    const owner = parseWorkspaceObjectName(this.ctx.id.name);
    if (!owner) return;
    const ledger = this.env.TENANT.getByName(owner.tenantId);
    await Promise.all(execIds.map((id) => ledger.releaseRun(id)));
  }

  /**
   * The tenant's ledger as this workspace's runs use it: a slot before a run, and after it
   * one call that meters `<executor>_ms` under the exec id, reports the workspace's size
   * (so storage integrates from when it changed) and frees the slot.
   */
  private runLedger(): RunLedger {
    const ledger = () => this.env.TENANT.getByName(this.owner().tenantId);
    return {
      open: (start) =>
        ledger().startRun({
          execId: start.execId,
          executor: start.executor,
          timeoutMs: start.timeoutMs,
          // The plan's egress gate covers any network at all, allow list or not.
          egress: start.egress !== null,
          workspaceId: this.owner().workspaceId,
          keyId: start.keyId,
        }),
      close: async (start, record) => {
        // Storage bills unique bytes (docs/billing.md), so that is the size the ledger integrates.
        const { uniqueBytes: sizeBytes, revision } = this.counters();
        await ledger().finishRun({
          execId: start.execId,
          executor: start.executor,
          durationMs: record.durationMs ?? 0,
          workspaceId: this.owner().workspaceId,
          keyId: start.keyId,
          storage: { sizeBytes, revision },
        });
      },
      release: (execId) => ledger().releaseRun(execId),
    };
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
    return this.publishing().publish(path, prefix);
  }
  /** Makes a share link to one file. */
  shareFile(path: string, request: ShareRequest, prefix: Prefix = null) {
    return this.publishing().share(path, request, prefix);
  }

  private publisher: WorkspacePublishing | undefined;
  /** Made on first use: the owner comes from this object's name, which only named objects have. */
  private publishing(): WorkspacePublishing {
    this.publisher ??= new WorkspacePublishing(this.env, this.vfs, this.owner(), (p) => this.fs(p));
    return this.publisher;
  }

  // ── reads ───────────────────────────────────────────────────────────────────────────────
  readFile(path: string, options?: ReadOptions, access: Access = null) {
    return this.fs(access).read(path, options);
  }
  stat(path: string, access: Access = null) {
    return this.fs(access).stat(path);
  }
  lstat(path: string, access: Access = null) {
    return this.fs(access).lstat(path);
  }
  readlink(path: string, access: Access = null) {
    return this.fs(access).readlink(path);
  }
  list(path: string, options?: ListOptions, access: Access = null) {
    return this.fs(access).list(path, options);
  }
  find(path: string, options?: FindOptions, access: Access = null) {
    return this.fs(access).find(path, options);
  }
  grep(pattern: string, path: string, options?: GrepOptions, access: Access = null) {
    return this.fs(access).grep(pattern, path, options);
  }
  changesSince(rev: number, limit?: number) {
    return this.vfs.changesSince(rev, limit);
  }
  /** The exact size and file count (cheap; what the index mirrors). */
  counters(): WorkspaceStats {
    return { ...this.vfs.counters(), uniqueBytes: this.vfs.uniqueBytes(), revision: this.vfs.revision() };
  }
  stats() {
    return this.vfs.stats();
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

  private terms: Promise<VersionTerms> | null = null;
  /**
   * The tenant plan's version terms, asked once per object start (by the first mutation,
   * under the filesystem's lock, or the first snapshot); the history window follows them.
   * An object without a tenant (tests that name objects freely) keeps no history window and
   * the free plan's snapshot quota.
   */
  private versionTerms(): Promise<VersionTerms> {
    this.terms ??= (async () => {
      const owner = parseWorkspaceObjectName(this.ctx.id.name ?? "");
      return owner
        ? await this.env.TENANT.getByName(owner.tenantId).versionTerms()
        : { ...PLANS.free.versions, historyWindowMs: 0 };
    })().catch((error) => {
      this.terms = null;
      throw error;
    });
    return this.terms;
  }

  /** Pins the current revision; refused (as a value) when the plan's snapshots per workspace are taken. */
  async createSnapshot(
    fields: { name?: string; description?: string; execId?: string },
    actor: string | null = null,
  ): Promise<{ ok: true; snapshot: Snapshot } | { ok: false; code: "quota_exceeded"; message: string }> {
    const terms = await this.versionTerms();
    if (this.vfs.snapshotCount() >= terms.snapshotsPerWorkspaceMax) {
      return {
        ok: false,
        code: "quota_exceeded",
        message: `this plan keeps at most ${terms.snapshotsPerWorkspaceMax} snapshots per workspace; delete one first`,
      };
    }
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
    if (deleted) await this.armMaintenance();
    return deleted;
  }
  readFileAt(ref: string, path: string, options?: ReadOptions) {
    return this.vfs.readAt(ref, path, options);
  }
  statAt(ref: string, path: string, follow = true) {
    return this.vfs.statAt(ref, path, follow);
  }
  /** A directory's entries at a version (its subtree with `recursive`), a page at a time. */
  listAt(
    ref: string,
    path: string,
    options: { recursive?: boolean; limit?: number; cursor?: string | undefined } = {},
  ) {
    return this.vfs.listAt(ref, path, options);
  }
  /** The differences between two versions; `path` keeps what is at or under it. */
  diff(from: string, to: string, patch: boolean, path?: string) {
    return this.vfs.diff(from, to, { patch, ...(path === undefined ? {} : { path }) });
  }
  history(path: string) {
    return this.vfs.history(path);
  }
  restore(ref: string, actor: string | null = null) {
    return this.after(this.vfs.actingAs(actor, () => this.vfs.restore(ref)));
  }

  /** The filesystem as a caller confined to a prefix sees it; the whole of it for none. */
  private fs(access: Access): VfsOps {
    const prefix = prefixOf(access);
    return prefix === null ? this.vfs : new ConfinedVfs(this.vfs, prefix);
  }

  /** One change for `caller`, recorded as its actor (mutations ask for the lock synchronously, under it). */
  private change<T extends object>(caller: Access, op: (fs: VfsOps) => Promise<FsResult<T>>): Promise<WithStats<T>> {
    return this.after(this.vfs.actingAs(actorOf(caller), () => op(this.fs(caller))));
  }

  // ── forks (vfs/forks/, docs/vfs.md "Forks") ─────────────────────────────────────────────
  // Both sides of a fork are objects of one tenant: each checks the other's name carries its
  // own tenant id, so not even a bug in the gateway could make a fork reach across tenants.

  /** This object's name; forks are only made between workspace objects, which have one. */
  private get selfName(): string {
    return this.ctx.id.name ?? "";
  }

  private sameTenant(other: string): boolean {
    const mine = parseWorkspaceObjectName(this.selfName);
    const theirs = parseWorkspaceObjectName(other);
    return mine !== null && theirs !== null && mine.tenantId === theirs.tenantId && other !== this.selfName;
  }

  private workspaceStub(name: string) {
    return this.env.WORKSPACE.getByName(name);
  }

  /** Asks the source for chunks this fork lacks; it answers only forks holding a pin there. */
  private lenderFor(source: string): ChunkLender {
    return async (hashes) => {
      const lent = await this.workspaceStub(source).lendChunks(this.selfName, [...hashes]);
      if (!lent.ok) throw new Error(`the fork's source refused to lend chunks: ${lent.message}`);
      return lent.chunks as LentChunk[];
    };
  }

  /**
   * Makes this new, empty workspace a fork of `source` at `ref` (a snapshot id, a revision
   * or `live`): imports the version's rows in one transaction, then copies the chunks in
   * the background while reads of missing ones go through to the source.
   */
  async forkFrom(
    source: string,
    ref: string,
    actor: string | null = null,
  ): Promise<{ ok: true; rev: number; stats: WorkspaceStats } | ForkRefusal> {
    if (!this.sameTenant(source)) return { ok: false, code: "ENOENT", message: "no such workspace to fork" };
    const stub = this.workspaceStub(source);
    const self = this.selfName;
    const imported = await this.vfs.actingAs(actor, () =>
      this.vfs.becomeFork(source, (cursor) => stub.exportFork(self, ref, cursor) as Promise<ExportAnswer>),
    );
    if (!imported.ok) {
      // The source may have pinned the version before the import failed.
      await stub.releaseFork(self).catch(() => {});
      if (imported.code === "ENOSPC") return { ok: false, code: "quota_exceeded", message: imported.message };
      return imported;
    }
    this.vfs.borrowFrom(this.lenderFor(source));
    markUnlisted(this.vfs.store.sql, Date.now());
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, rev: imported.rev, stats: this.counters() };
  }

  /**
   * The source's side of `forkFrom`: pins the version for `fork` and hands its rows over, a
   * call at a time (`callBytesMax` of rows per call; tests make it small to take many calls).
   */
  exportFork(fork: string, ref: string, cursor: ForkCursor | null, callBytesMax?: number): ExportAnswer {
    if (!this.sameTenant(fork)) return { ok: false, code: "ENOENT", message: "no such fork" };
    // A workspace being deleted takes no new forks (its index row is already gone).
    if (cursor === null && this.isDeleting())
      return { ok: false, code: "ENOENT", message: "no such workspace to fork" };
    return this.vfs.exportFork(fork, ref, cursor, callBytesMax);
  }

  /** Chunks for a fork holding a pin here (reading any this workspace itself still borrows). */
  lendChunks(fork: string, hashes: string[]) {
    if (!this.sameTenant(fork)) return { ok: false as const, code: "ENOENT" as const, message: "no such fork" };
    return this.vfs.lend(fork, hashes);
  }

  /** A fork has every chunk (or is gone): what only its pin kept becomes garbage. */
  async releaseFork(fork: string): Promise<boolean> {
    const released = this.vfs.releaseFork(fork);
    if (released && !this.isDeleting()) await this.armMaintenance();
    return released;
  }

  /**
   * Copies from `source` everything still missing, now; a source about to be deleted calls
   * it on each fork holding a pin there. True when this workspace needs nothing more from
   * `source`: it has copied everything, or it is not (or no longer) that source's fork, as
   * when its import never finished. The source may then drop the pin itself.
   */
  async adoptSource(source: string): Promise<boolean> {
    if (this.vfs.forkOrigin()?.source !== source) return true;
    while ((await this.copyStep(workspaceLimits.forkCopyChunksPerAlarm)).remaining) {}
    return this.vfs.forkOrigin() === null;
  }

  /** Whether this workspace still reads chunks through from `source` (a source's check of an old pin). */
  isForkOf(source: string): boolean {
    return this.vfs.forkOrigin()?.source === source;
  }

  /** One step of the background copy; with nothing missing, lets go of the source. */
  private async copyStep(max: number): Promise<{ remaining: boolean }> {
    const origin = this.vfs.forkOrigin();
    if (!origin) return { remaining: false };
    const copied = await this.vfs.copyAbsent(max);
    if (copied.remaining) return { remaining: true };
    const done = this.vfs.doneBorrowing();
    if (done) {
      // Released there first: a crash before the record below goes leaves a fork that releases again.
      await this.workspaceStub(done.source).releaseFork(this.selfName);
      this.vfs.forgetOrigin();
    }
    return { remaining: false };
  }

  /**
   * A pin whose fork never finished its import (the gateway died between the two) would
   * keep this workspace's versions forever: a pin older than `forkPinCheckAfterMs` is
   * checked with its fork, and dropped if the fork does not read through from here.
   */
  private async dropStalePins(): Promise<void> {
    const old = this.vfs.forkPins().filter((pin) => pin.createdMs < Date.now() - workspaceLimits.forkPinCheckAfterMs);
    for (const pin of old) {
      if (!(await this.workspaceStub(pin.fork).isForkOf(this.selfName))) this.vfs.releaseFork(pin.fork);
    }
  }

  private isDeleting(): boolean {
    return this.vfs.store.sql.exec("SELECT 1 FROM meta WHERE key = 'deleting' AND value = 1").toArray().length > 0;
  }

  /**
   * Before its storage goes, a source hands every chunk its forks still lack to them (each
   * copies what it misses, now), and a fork lets go of its own source. False when a fork
   * could not finish: the storage stays, and the alarm tries again.
   */
  private async handOver(): Promise<boolean> {
    const pins = this.vfs.forkPins();
    await Promise.allSettled(
      pins.map(async (pin) => {
        if (await this.workspaceStub(pin.fork).adoptSource(this.selfName)) this.vfs.releaseFork(pin.fork);
      }),
    );
    if (this.vfs.forkPins().length > 0) return false;
    const origin = this.vfs.forkOrigin();
    if (origin) await this.workspaceStub(origin.source).releaseFork(this.selfName);
    return true;
  }

  /** Deletes every file and record; the object is empty afterwards. */
  async destroy(): Promise<void> {
    // Its computer, if it ever had one (a computer that synced left its cursor in the change
    // log), goes too, with the replica on the computer's disk. Workspaces that never ran a
    // container make no call: in production that would start a Container object for nothing.
    const found = containerHostFor(this.env as Env & ContainerEnv);
    if (found && this.ctx.id.name && hasCursor(this.vfs.store, COMPUTERD_CURSOR)) {
      await found.host
        .forget(this.ctx.id.name)
        .catch((error) => console.error("forgetting the computer failed", error));
    }
    // Marked first, with an alarm to finish: an object evicted mid-hand-over keeps its
    // storage (so every fork stays whole) and completes the deletion on its next alarm.
    this.vfs.store.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('deleting', 1)");
    await this.ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
    const handedOver = await this.handOver().catch((error) => {
      console.error("handing chunks over to forks; the alarm tries again", error);
      return false;
    });
    if (handedOver) await this.erase();
  }

  private async erase(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    this.alarmSet = false;
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    // This alarm has fired: the next change checks again (this run may set the next one itself).
    this.alarmSet = false;
    if (this.isDeleting()) {
      if (await this.handOver().catch(() => false)) await this.erase();
      else await this.ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
      return;
    }
    const listing = await checkListing(this.vfs.store.sql, database(this.env.DB), () => this.owner(), Date.now()).catch(
      (error) => {
        console.error("asking the index for this fork", error);
        return "not yet" as const;
      },
    );
    if (listing === "unlisted") return this.destroy();
    await this.dropStalePins().catch((error) => console.error("checking old fork pins", error));
    const pass = await this.vfs.maintain();
    const copy = await this.copyStep(workspaceLimits.forkCopyChunksPerAlarm).catch((error) => {
      console.error("copying a fork's chunks from its source", error);
      return { remaining: true, failed: true };
    });
    if ("failed" in copy) await this.ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
    else if (pass.remaining || copy.remaining) await this.ctx.storage.setAlarm(Date.now());
    // Kept versions age out of the history window without any write to notice it.
    else if (this.vfs.hasHistory()) await this.ctx.storage.setAlarm(Date.now() + workspaceLimits.historyPassEveryMs);
    const check = listingCheckAt(this.vfs.store.sql);
    const armed = await this.ctx.storage.getAlarm();
    if (check !== null && (armed === null || armed > check)) await this.ctx.storage.setAlarm(check);
  }

  /** Adds the counters to a mutation's result and arms GC if it left garbage behind. */
  private async after<T extends object>(pending: Promise<FsResult<T>> | FsResult<T>): Promise<WithStats<T>> {
    const result = await pending;
    if (!result.ok) return result;
    await this.armMaintenance();
    return { ...result, stats: this.counters() };
  }

  /** Whether an alarm is known to be set, so a burst of changes (a run's writes) asks storage once. */
  private alarmSet = false;

  /** Arms the alarm for garbage or kept history, unless it is armed already. */
  private async armMaintenance(): Promise<void> {
    if (this.alarmSet) return;
    if (!this.vfs.hasGarbage() && !this.vfs.hasHistory()) return;
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + workspaceLimits.gcDelayMs);
    }
    this.alarmSet = true;
  }
}
