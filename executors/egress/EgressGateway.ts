/**
 * The outbound gateway of executors that may reach the network: a sandbox's
 * `globalOutbound`, so every fetch it makes arrives here as `fetch(request)`. It refuses
 * the platform's own network and hosts outside the run's allow list (allowList.ts), if it
 * has one, forwards the rest to the internet and records the body bytes
 * that crossed as one `egress_bytes` event per request in the tenant's ledger
 * (meteredFetch.ts says exactly what is counted).
 *
 * Built by the workspace object as a loopback binding, `ctx.exports.EgressGateway({ props })`,
 * whose props say who the traffic belongs to and where it may go. A sandbox's outbound is fixed when its isolate
 * is created, so an executor keys its warm isolates by what the props name (see
 * `Outbound.attribution` in ../registry.ts): the attribution and the allow list are right
 * for every request.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import type { ExecutorName } from "../contract.ts";
import { meteredFetch } from "./meteredFetch.ts";

/** Who a sandbox's traffic is billed to. */
export interface EgressProps {
  tenantId: string;
  workspaceId: string;
  /** The API key (or token's key) the runs in this sandbox were started with; null if unknown. */
  keyId: string | null;
  executor: ExecutorName;
  /**
   * The run's normalised allow list (allowList.ts): hosts outside it are refused before any
   * upstream call. Null lets every public host through.
   */
  allow: string[] | null;
}

export class EgressGateway extends WorkerEntrypoint<Env, EgressProps> {
  override fetch(request: Request): Promise<Response> {
    const { tenantId, workspaceId, keyId, executor, allow } = this.ctx.props;
    const ledger = this.env.TENANT.getByName(tenantId);
    return meteredFetch(
      request,
      {
        fetch: (upstream) => fetch(upstream),
        record: async ({ sentBytes, receivedBytes }) => {
          await ledger.record({
            id: `egr_${crypto.randomUUID().replaceAll("-", "")}`,
            meter: "egress_bytes",
            quantity: sentBytes + receivedBytes,
            workspaceId,
            keyId,
            executor,
          });
        },
        waitUntil: (work) => this.ctx.waitUntil(work),
      },
      allow,
    );
  }
}
