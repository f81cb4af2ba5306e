/**
 * The tenant's ledger (TenantDO) as this workspace's background runs use it: the tenant's
 * object granted the run's slot before it started (TenantDO.exec), and when the run ends,
 * long after its caller had its answer, one call meters `<executor>_ms` under the exec id,
 * reports the workspace's size (so storage integrates from when it changed) and frees the
 * slot. A run its caller waits for is metered by the tenant's object itself.
 */
import type { WorkspaceOwner } from "../names.ts";
import type { RunLedger } from "./ExecRunner.ts";

/** The part of a workspace's counters that storage bills: unique bytes (docs/billing.md), as of a revision. */
export interface BilledSize {
  uniqueBytes: number;
  revision: number;
}

export function runLedger(env: Env, owner: () => WorkspaceOwner, size: () => BilledSize): RunLedger {
  const ledger = () => env.TENANT.getByName(owner().tenantId);
  return {
    close: async (start, record) => {
      const { uniqueBytes: sizeBytes, revision } = size();
      await ledger().finishRun({
        execId: start.execId,
        executor: start.executor,
        durationMs: record.durationMs ?? 0,
        workspaceId: owner().workspaceId,
        keyId: start.keyId,
        storage: { sizeBytes, revision },
      });
    },
  };
}

/** Frees the concurrency slots of runs lost in a restart (they are not billed: the loss was ours). */
export async function releaseSlots(env: Env, owner: WorkspaceOwner | null, execIds: string[]): Promise<void> {
  if (!owner) return;
  const ledger = env.TENANT.getByName(owner.tenantId);
  await Promise.all(execIds.map((id) => ledger.releaseRun(id)));
}
