/**
 * The tenant's ledger (TenantDO) as this workspace's runs use it: one call before a run
 * that admits its API request when the gateway left that to the run, and takes its slot;
 * and after it one call that meters `<executor>_ms` under the exec id, reports the
 * workspace's size (so storage integrates from when it changed) and frees the slot.
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
    open: (start) =>
      ledger().startRun({
        execId: start.execId,
        executor: start.executor,
        timeoutMs: start.timeoutMs,
        // The plan's egress gate covers any network at all, allow list or not.
        egress: start.egress !== null,
        workspaceId: owner().workspaceId,
        keyId: start.keyId,
        ...(start.requestId ? { request: { requestId: start.requestId } } : {}),
      }),
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
    release: (execId) => ledger().releaseRun(execId),
  };
}

/** Frees the concurrency slots of runs lost in a restart (they are not billed: the loss was ours). */
export async function releaseSlots(env: Env, owner: WorkspaceOwner | null, execIds: string[]): Promise<void> {
  if (!owner) return;
  const ledger = env.TENANT.getByName(owner.tenantId);
  await Promise.all(execIds.map((id) => ledger.releaseRun(id)));
}
