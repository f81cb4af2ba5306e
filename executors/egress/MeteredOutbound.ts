/**
 * The outbound gateway of executors that may reach the network: a sandbox's
 * `globalOutbound`, so every fetch it makes arrives here as `fetch(request)`. It refuses
 * the platform's own network and hosts outside the run's allow list, if it has one (the
 * policy both egress paths share, container/wire/egress), forwards the rest to the internet
 * and records the body bytes that crossed as one `egress_bytes` event per request in the
 * tenant's ledger (meteredFetch.ts says exactly what is counted; usage.ts how it is billed).
 *
 * The Worker exports it as `EgressGateway` (tenants/account/EgressGateway.ts), which says where
 * the usage goes: this class only meters, through the `usage` recorder its subclass gives it.
 * The workspace object builds it as a loopback binding, `ctx.exports.EgressGateway({ props })`,
 * whose props say who the traffic belongs to and where it may go. A sandbox's outbound is
 * fixed when its isolate is created, so an executor keys its warm isolates by what the props
 * name (see `Outbound.attribution` in ../registry.ts): the attribution and the allow list
 * are right for every request.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { meteredFetch } from "./meteredFetch.ts";
import { type EgressAttribution, egressEvent, requestEgressId, type UsageRecorder } from "./usage.ts";

/** Who a sandbox's traffic is billed to, and where it may go. */
export interface EgressProps extends EgressAttribution {
  tenantId: string;
  /**
   * The run's normalised allow list (container/wire/egress/allowList.ts): hosts outside it
   * are refused before any upstream call. Null lets every public host through.
   */
  allow: string[] | null;
}

export abstract class MeteredOutbound extends WorkerEntrypoint<Env, EgressProps> {
  /** Where the tenant's egress events go. */
  protected abstract usage(tenantId: string): UsageRecorder;

  override fetch(request: Request): Promise<Response> {
    const { tenantId, allow } = this.ctx.props;
    const ledger = this.usage(tenantId);
    return meteredFetch(
      request,
      {
        fetch: (upstream) => fetch(upstream),
        record: async ({ sentBytes, receivedBytes }) => {
          await ledger.record(egressEvent(this.ctx.props, requestEgressId(), sentBytes + receivedBytes));
        },
        waitUntil: (work) => this.ctx.waitUntil(work),
      },
      allow,
    );
  }
}
