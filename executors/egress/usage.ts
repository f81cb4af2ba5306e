/**
 * How egress is billed, whichever path the bytes took (the Worker-side gateway for shell and
 * javascript, computerd's proxy for container): one `egress_bytes` event in the tenant's
 * ledger, attributed to the workspace, the key and the executor, under an id that names one
 * request or one run, so recording an event twice counts it once.
 */
import type { ExecutorName } from "../contract.ts";

/** Who egress is billed to, besides the tenant whose ledger records it. */
export interface EgressAttribution {
  workspaceId: string;
  /** The API key (or token's key) the run was started with; null if unknown. */
  keyId: string | null;
  executor: ExecutorName;
}

/** The ledger event for `bytes` of egress under `id`. */
export function egressEvent(who: EgressAttribution, id: string, bytes: number) {
  return {
    id,
    meter: "egress_bytes" as const,
    quantity: bytes,
    workspaceId: who.workspaceId,
    keyId: who.keyId,
    executor: who.executor,
  };
}

/** The gateway's id for one request: a request has no id of its own, so a random one. */
export function requestEgressId(): string {
  return `egr_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Where an executor's usage events go: the tenant's ledger (its object's `record`, where a
 * repeated id counts once). The tenants room binds it and hands it down; executors never
 * reach the ledger's binding themselves, so they stay usable wherever a recorder exists.
 */
export interface UsageRecorder {
  record(event: ReturnType<typeof egressEvent>): Promise<unknown>;
}

/**
 * How a container run's egress is billed: computerd's proxy counts the run's bytes and
 * reports one total when the run ends, recorded as one event whose id is derived from the
 * run's (`egr_<execId>`), so recording the same run again counts once.
 */
export function runEgressRecorder(
  ledger: UsageRecorder,
  run: EgressAttribution & { execId: string },
): (bytes: number) => Promise<void> {
  return async (bytes) => {
    await ledger.record(egressEvent(run, `egr_${run.execId}`, bytes));
  };
}
