/**
 * The executors' outbound gateway as the Worker exports it: the metering and allow-list
 * policy of executors/egress/MeteredOutbound.ts, with its usage recorded in the tenant's
 * ledger object. The binding is named here, in the ledger's room, so the executors only ever
 * see a `UsageRecorder`.
 */
import { MeteredOutbound } from "../../executors/egress/MeteredOutbound.ts";
import type { UsageRecorder } from "../../executors/egress/usage.ts";

export class EgressGateway extends MeteredOutbound {
  protected override usage(tenantId: string): UsageRecorder {
    return this.env.TENANT.getByName(tenantId);
  }
}
