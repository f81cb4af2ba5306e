/**
 * A workspace object's upkeep: the alarm that reclaims garbage, prunes history past the
 * plan's window, imports a fork's rows and then copies its chunks from its source, and asks
 * the index about an unlisted fork (unlistedFork.ts); and deletion, which hands chunks over to forks first
 * (forks.ts) and finishes on the alarm if it cannot at once. WorkspaceDO forwards `alarm`
 * and `destroy` here.
 */
import { type ContainerEnv, containerHostFor } from "../../executors/container/host.ts";
import { database } from "../db.ts";
import { COMPUTERD_CURSOR } from "./execs/WorkspaceSyncTarget.ts";
import { isDeleting, markDeleting, type WorkspaceForks } from "./forks.ts";
import { workspaceLimits } from "./limits.ts";
import type { WorkspaceOwner } from "./names.ts";
import { checkListing, listingCheckAt } from "./unlistedFork.ts";
import { hasCursor } from "./vfs/changes.ts";
import type { Vfs } from "./vfs/Vfs.ts";

export interface MaintenanceParts {
  ctx: DurableObjectState;
  env: Env;
  vfs: Vfs;
  forks: WorkspaceForks;
  owner: () => WorkspaceOwner;
}

export class WorkspaceMaintenance {
  /** Whether an alarm is known to be set, so a burst of changes (a run's writes) asks storage once. */
  private alarmSet = false;

  constructor(private readonly parts: MaintenanceParts) {}

  /** Arms the alarm for garbage or kept history, unless it is armed already. */
  async arm(): Promise<void> {
    const { ctx, vfs } = this.parts;
    if (this.alarmSet) return;
    if (!vfs.hasGarbage() && !vfs.hasHistory()) return;
    if ((await ctx.storage.getAlarm()) === null) {
      await ctx.storage.setAlarm(Date.now() + workspaceLimits.gcDelayMs);
    }
    this.alarmSet = true;
  }

  /** Deletes every file and record; the object is empty afterwards. */
  async destroy(): Promise<void> {
    const { ctx, env, vfs, forks } = this.parts;
    // Its computer, if it ever had one (a computer that synced left its cursor in the change
    // log), goes too, with the replica on the computer's disk. Workspaces that never ran a
    // container make no call: in production that would start a Container object for nothing.
    const found = containerHostFor(env as Env & ContainerEnv);
    if (found && ctx.id.name && hasCursor(vfs.store, COMPUTERD_CURSOR)) {
      await found.host.forget(ctx.id.name).catch((error) => console.error("forgetting the computer failed", error));
    }
    // Marked first, with an alarm to finish: an object evicted mid-hand-over keeps its
    // storage (so every fork stays whole) and completes the deletion on its next alarm.
    markDeleting(vfs.store.sql);
    await ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
    // A fork's import call on its way lands (or not) before the storage goes, never after.
    await forks.importStopped();
    const handedOver = await forks.handOver().catch((error) => {
      console.error("handing chunks over to forks; the alarm tries again", error);
      return false;
    });
    if (handedOver) await this.erase();
  }

  /** Set once the storage is gone: an alarm still running stops at its next step. */
  private erased = false;

  private async erase(): Promise<void> {
    this.erased = true;
    await this.parts.ctx.storage.deleteAlarm();
    this.alarmSet = false;
    await this.parts.ctx.storage.deleteAll();
  }

  async alarm(): Promise<void> {
    const { ctx, env, vfs, forks } = this.parts;
    // This alarm has fired: the next change checks again (this run may set the next one itself).
    this.alarmSet = false;
    if (isDeleting(vfs.store.sql)) {
      if (await forks.handOver().catch(() => false)) await this.erase();
      else await ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
      return;
    }
    const listing = await checkListing(vfs.store.sql, database(env.DB), this.parts.owner, Date.now()).catch((error) => {
      console.error("asking the index for this fork", error);
      return "not yet" as const;
    });
    if (listing === "unlisted") return this.destroy();
    // A fork's rows first (forks.ts): an import cut short by an eviction resumes here.
    const imported = await forks.ready().then(
      () => true,
      (error) => {
        console.error("importing a fork's rows from its source; the alarm tries again", error);
        return false;
      },
    );
    if (this.erased) return;
    if (!imported) return ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
    await forks.dropStalePins().catch((error) => console.error("checking old fork pins", error));
    const pass = await vfs.maintain();
    const copy = await forks.copyStep(workspaceLimits.forkCopyChunksPerAlarm).catch((error) => {
      console.error("copying a fork's chunks from its source", error);
      return { remaining: true, failed: true };
    });
    if ("failed" in copy) await ctx.storage.setAlarm(Date.now() + workspaceLimits.forkHandOverRetryMs);
    else if (pass.remaining || copy.remaining) await ctx.storage.setAlarm(Date.now());
    // Kept versions age out of the history window without any write to notice it.
    else if (vfs.hasHistory()) await ctx.storage.setAlarm(Date.now() + workspaceLimits.historyPassEveryMs);
    const check = listingCheckAt(vfs.store.sql);
    const armed = await ctx.storage.getAlarm();
    if (check !== null && (armed === null || armed > check)) await ctx.storage.setAlarm(check);
  }
}
