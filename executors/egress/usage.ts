/**
 * How egress is billed, whichever path the bytes took (the Worker-side gateway for shell and
 * javascript, computerd's proxy for container): one `egress_bytes` event in the tenant's
 * ledger, attributed to the workspace, the key and the executor, under an id that is never
 * reused, so recording an event twice counts it once.
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
 * A container run's id: the run's egress is one total, recorded once when it ends, so the
 * id is the run's own and a repeated recording of the same run counts once.
 */
export function runEgressId(execId: string): string {
  return `egr_${execId}`;
}
