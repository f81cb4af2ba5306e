/**
 * Forks as one workspace object sees them (vfs/forks/, docs/vfs.md "Forks"): making this
 * workspace a fork of another, which answers at once and imports the source's rows in the
 * background; while it does, the fork's reads are answered by the source at the pinned
 * revision and its changes and runs wait for the import's end. On the source's side: pinning
 * a version for a fork, handing its rows and chunks over, answering its reads. Then the
 * background copy that ends a fork's borrowing, and, before a workspace's storage goes,
 * handing every chunk its forks still lack over to them. WorkspaceDO forwards its fork RPC
 * methods here.
 *
 * Both sides of a fork are objects of one tenant: each checks the other's name carries its
 * own tenant id, so not even a bug in the gateway could make a fork reach across tenants.
 */
import { workspaceLimits } from "./limits.ts";
import { parseWorkspaceObjectName } from "./names.ts";
import { markUnlisted } from "./unlistedFork.ts";
import type { FsFailure } from "./vfs/errors.ts";
import type { ForkCursor } from "./vfs/forks/export.ts";
import type { ExportAnswer, PinAnswer } from "./vfs/forks/fork.ts";
import type { ChunkLender, LentChunk } from "./vfs/forks/lend.ts";
import type { ForkRead, ForkReadAnswer } from "./vfs/forks/reads.ts";
import type { Vfs } from "./vfs/Vfs.ts";

/** Why a fork was not made: a filesystem failure (an unknown version: ENOENT), or a quota. */
export type ForkRefusal = FsFailure | { ok: false; code: "quota_exceeded"; message: string };

/** What the fork side needs of its object. */
export interface ForkParts {
  ctx: DurableObjectState;
  env: Env;
  vfs: Vfs;
  /** Arms the alarm for garbage a released pin left behind. */
  armMaintenance: () => Promise<void>;
}

/** Whether the workspace is being deleted (marked by `markDeleting`, finished by the alarm). */
export function isDeleting(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM meta WHERE key = 'deleting' AND value = 1").toArray().length > 0;
}

export function markDeleting(sql: SqlStorage): void {
  sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('deleting', 1)");
}

export class WorkspaceForks {
  constructor(private readonly parts: ForkParts) {}

  /** This object's name; forks are only made between workspace objects, which have one. */
  private get selfName(): string {
    return this.parts.ctx.id.name ?? "";
  }

  private get vfs(): Vfs {
    return this.parts.vfs;
  }

  private deleting(): boolean {
    return isDeleting(this.vfs.store.sql);
  }

  private sameTenant(other: string): boolean {
    const mine = parseWorkspaceObjectName(this.selfName);
    const theirs = parseWorkspaceObjectName(other);
    return mine !== null && theirs !== null && mine.tenantId === theirs.tenantId && other !== this.selfName;
  }

  private stub(name: string) {
    return this.parts.env.WORKSPACE.getByName(name);
  }

  /** Asks the source for chunks this fork lacks; it answers only forks holding a pin there. */
  lenderFor(source: string): ChunkLender {
    return async (hashes) => {
      const lent = await this.stub(source).lendChunks(this.selfName, [...hashes]);
      if (!lent.ok) throw new Error(`the fork's source refused to lend chunks: ${lent.message}`);
      return lent.chunks as LentChunk[];
    };
  }

  /**
   * Makes this new, empty workspace a fork of `source` at `ref` (a snapshot id, a revision
   * or `live`): the source pins the version and counts it, this workspace records where its
   * rows will come from, and the answer goes back. The rows come in the background (the
   * alarm, or whatever first needs them: `ready`); chunks are copied after them.
   */
  async forkFrom(source: string, ref: string, actor: string | null): Promise<{ ok: true; rev: number } | ForkRefusal> {
    if (!this.sameTenant(source)) return { ok: false, code: "ENOENT", message: "no such workspace to fork" };
    const stub = this.stub(source);
    const pinned = (await stub.pinForFork(this.selfName, ref)) as PinAnswer;
    if (!pinned.ok) {
      if (pinned.code === "ENOSPC") return { ok: false, code: "quota_exceeded", message: pinned.message };
      return pinned;
    }
    const started = await this.vfs.actingAs(actor, () =>
      this.vfs.startFork({ source, rev: pinned.rev }, pinned.counts),
    );
    if (!started.ok) {
      // The pin was taken for nothing: let it go.
      await stub.releaseFork(this.selfName).catch(() => {});
      return started;
    }
    this.vfs.borrowFrom(this.lenderFor(source));
    markUnlisted(this.vfs.store.sql, Date.now());
    await this.parts.ctx.storage.setAlarm(Date.now());
    return { ok: true, rev: pinned.rev };
  }

  private importing: Promise<void> | null = null;

  /**
   * Resolves once this workspace's rows are all here (at once for any workspace not
   * importing): drives the import to its end, or joins the run already doing so. A call
   * fails when the source cannot answer; the next caller, or the alarm, tries again from
   * the last call that landed.
   */
  ready(): Promise<void> {
    if (!this.vfs.isImporting()) return Promise.resolve();
    this.importing ??= this.importRest().finally(() => {
      this.importing = null;
    });
    return this.importing;
  }

  private async importRest(): Promise<void> {
    const origin = this.vfs.forkOrigin();
    if (!origin) throw new Error("a fork's import has no source recorded");
    const stub = this.stub(origin.source);
    while (this.vfs.isImporting() && !this.deleting()) {
      const cursor = this.vfs.importCursor();
      const answer = (await stub.exportFork(this.selfName, cursor, this.importCallBytesMax)) as ExportAnswer;
      if (!answer.ok) throw new Error(`the fork's source refused its rows: ${answer.message}`);
      // A workspace deleted while the call was on its way keeps nothing of it.
      if (!this.vfs.isImporting() || this.deleting()) return;
      this.vfs.importCall(answer.pages, answer.next === null);
    }
  }

  /** Resolves once no import call is running; a workspace being deleted starts no new one. */
  async importStopped(): Promise<void> {
    await this.importing?.catch(() => {});
  }

  /** Bytes of rows per import call; tests make it small to take many calls. */
  importCallBytesMax = workspaceLimits.forkImportCallBytesMax;

  /**
   * Answers a read of this workspace: while its rows are still arriving, the source answers
   * it at the pinned revision (for the whole workspace; a caller confined to a prefix waits
   * for the import, since confinement is checked on this workspace's own tree); else `local`.
   */
  async read<T>(confined: boolean, request: ForkRead, local: () => T): Promise<Awaited<T>> {
    const origin = this.vfs.isImporting() ? this.vfs.forkOrigin() : null;
    if (origin && !confined) {
      return (await this.stub(origin.source).readForFork(this.selfName, request)) as Awaited<T>;
    }
    return this.whole(local);
  }

  /** What needs this workspace's own rows: at once, or once a fork's import is done. */
  async whole<T>(fn: () => T): Promise<Awaited<T>> {
    await this.ready();
    return await fn();
  }

  /** The source's side of `forkFrom`: pins the version for `fork` and counts it there. */
  async pinForFork(fork: string, ref: string): Promise<PinAnswer> {
    if (!this.sameTenant(fork)) return { ok: false, code: "ENOENT", message: "no such fork" };
    // A fork of a fork still importing is made from its whole tree.
    await this.ready();
    // A workspace being deleted takes no new forks (its index row is already gone).
    if (this.deleting()) return { ok: false, code: "ENOENT", message: "no such workspace to fork" };
    return this.vfs.pinForFork(fork, ref);
  }

  /** One call of a fork's import (`callBytesMax` of rows; tests make it small to take many calls). */
  exportFork(fork: string, cursor: ForkCursor | null, callBytesMax?: number): ExportAnswer {
    if (!this.sameTenant(fork)) return { ok: false, code: "ENOENT", message: "no such fork" };
    return this.vfs.exportFork(fork, cursor, callBytesMax);
  }

  /** A fork's read while it imports, at the revision it pinned here. */
  readForFork(fork: string, request: ForkRead): ForkReadAnswer {
    if (!this.sameTenant(fork)) return { ok: false, code: "ENOENT", message: "no such fork" };
    return this.vfs.readForFork(fork, request);
  }

  /** Chunks for a fork holding a pin here (reading any this workspace itself still borrows). */
  lendChunks(fork: string, hashes: string[]) {
    if (!this.sameTenant(fork)) return { ok: false as const, code: "ENOENT" as const, message: "no such fork" };
    return this.vfs.lend(fork, hashes);
  }

  /** A fork has every chunk (or is gone): what only its pin kept becomes garbage. */
  async releaseFork(fork: string): Promise<boolean> {
    const released = this.vfs.releaseFork(fork);
    if (released && !this.deleting()) await this.parts.armMaintenance();
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
    await this.ready();
    while ((await this.copyStep(workspaceLimits.forkCopyChunksPerAlarm)).remaining) {}
    return this.vfs.forkOrigin() === null;
  }

  /** Whether this workspace still reads chunks through from `source` (a source's check of an old pin). */
  isForkOf(source: string): boolean {
    return this.vfs.forkOrigin()?.source === source;
  }

  /** One step of the background copy; with nothing missing, lets go of the source. */
  async copyStep(max: number): Promise<{ remaining: boolean }> {
    const origin = this.vfs.forkOrigin();
    if (!origin) return { remaining: false };
    await this.ready();
    const copied = await this.vfs.copyAbsent(max);
    if (copied.remaining) return { remaining: true };
    const done = this.vfs.doneBorrowing();
    if (done) {
      // Released there first: a crash before the record below goes leaves a fork that releases again.
      await this.stub(done.source).releaseFork(this.selfName);
      this.vfs.forgetOrigin();
    }
    return { remaining: false };
  }

  /**
   * A pin whose fork never finished its import (the gateway died between the two) would
   * keep this workspace's versions forever: a pin older than `forkPinCheckAfterMs` is
   * checked with its fork, and dropped if the fork does not read through from here.
   */
  async dropStalePins(): Promise<void> {
    const old = this.vfs.forkPins().filter((pin) => pin.createdMs < Date.now() - workspaceLimits.forkPinCheckAfterMs);
    for (const pin of old) {
      if (!(await this.stub(pin.fork).isForkOf(this.selfName))) this.vfs.releaseFork(pin.fork);
    }
  }

  /**
   * Before its storage goes, a source hands every chunk its forks still lack to them (each
   * copies what it misses, now), and a fork lets go of its own source. False when a fork
   * could not finish: the storage stays, and the alarm tries again.
   */
  async handOver(): Promise<boolean> {
    const pins = this.vfs.forkPins();
    await Promise.allSettled(
      pins.map(async (pin) => {
        if (await this.stub(pin.fork).adoptSource(this.selfName)) this.vfs.releaseFork(pin.fork);
      }),
    );
    if (this.vfs.forkPins().length > 0) return false;
    const origin = this.vfs.forkOrigin();
    if (origin) await this.stub(origin.source).releaseFork(this.selfName);
    return true;
  }
}
