/**
 * The modules a workspace object is made of (WorkspaceDO): its filesystem, its runs, its
 * forks and its maintenance, wired together. The object builds them on first use rather than
 * when it starts, because building writes their tables: an object named for a workspace the
 * tenant does not have must store nothing.
 */
import { ExecRunner } from "./execs/ExecRunner.ts";
import { ExecRecords, migrateExecs } from "./execs/records.ts";
import { RunExecutors } from "./execs/runExecutors.ts";
import { releaseSlots, runLedger } from "./execs/runLedger.ts";
import { WorkspaceForks } from "./forks.ts";
import type { ImageModel } from "./images.ts";
import { WorkspaceMaintenance } from "./maintenance.ts";
import { parseWorkspaceObjectName, type WorkspaceOwner } from "./names.ts";
import type { WorkspacePublishing } from "./publishing.ts";
import type { WorkspaceStats } from "./stats.ts";
import { versionTermsMaxAgeMs } from "./versionTerms.ts";
import { Vfs } from "./vfs/Vfs.ts";

export interface Parts {
  vfs: Vfs;
  execs: ExecRunner;
  forks: WorkspaceForks;
  maintenance: WorkspaceMaintenance;
}

/** What the parts need from their object. */
export interface PartsHost {
  ctx: DurableObjectState;
  env: Env;
  /** The tenant plan's history window (versionTerms.ts). */
  historyWindowMs: () => Promise<number>;
  owner: () => WorkspaceOwner;
  publishing: () => WorkspacePublishing;
  imageModel: () => ImageModel | null;
  counters: () => WorkspaceStats;
}

/** Whether the object's database holds anything (a workspace that was used), read without writing. */
export function hasTables(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
}

export function buildParts(host: PartsHost): Parts {
  const { ctx, env } = host;
  const vfs = new Vfs(ctx.storage.sql, (fn) => ctx.storage.transactionSync(fn));
  // The plan's history window applies before this instance records any change (Vfs.keepHistoryFor).
  vfs.keepHistoryFor(host.historyWindowMs, versionTermsMaxAgeMs);
  // Whoever changed the tree (the API, a run, a container's push), what the change left
  // behind (garbage, kept versions) is collected and pruned by the alarm.
  vfs.onChange(() => ctx.waitUntil(maintenance.arm().catch((error) => console.error("arming maintenance", error))));
  migrateExecs(ctx.storage);
  const records = new ExecRecords(ctx.storage.sql);
  // Runs recorded as running belong to an instance that is gone: end them honestly.
  const abandoned = records.abandonRunning();
  if (abandoned.length > 0) ctx.waitUntil(releaseSlots(env, parseWorkspaceObjectName(ctx.id.name), abandoned));
  const executors = new RunExecutors({
    ctx,
    env,
    vfs,
    owner: host.owner,
    publishing: host.publishing,
    imageModel: host.imageModel,
  });
  const execs = new ExecRunner(
    records,
    (start) => executors.executor(start),
    runLedger(env, host.owner, host.counters),
    (work) => ctx.waitUntil(work),
  );
  const forks: WorkspaceForks = new WorkspaceForks({ ctx, env, vfs, armMaintenance: () => maintenance.arm() });
  // A fork's changes, from any caller, wait until its rows have all arrived (forks.ts).
  vfs.holdChangesDuringImport(() => forks.ready());
  const maintenance: WorkspaceMaintenance = new WorkspaceMaintenance({ ctx, env, vfs, forks, owner: host.owner });
  // A fork still lacking chunks reads them through from its source (vfs/forks/).
  const origin = vfs.forkOrigin();
  if (origin) vfs.borrowFrom(forks.lenderFor(origin.source));
  return { vfs, execs, forks, maintenance };
}
