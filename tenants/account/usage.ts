/** Records and reads usage through the tenant's Durable Object, the ledger of record. */
import type { Meter, UsageEvent, UsagePoint } from "./meters.ts";
import type { TenantDO } from "./TenantDO.ts";

export class Usage {
  constructor(private readonly namespace: DurableObjectNamespace<TenantDO>) {}

  async record(tenantId: string, event: UsageEvent): Promise<boolean> {
    return this.ledger(tenantId).record(event);
  }

  async daily(tenantId: string, meter: Meter, fromIso: string, toIso: string): Promise<UsagePoint[]> {
    return this.ledger(tenantId).daily(meter, fromIso, toIso);
  }

  private ledger(tenantId: string) {
    return this.namespace.getByName(tenantId);
  }
}
