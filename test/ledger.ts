/** Reading a tenant's ledger in tests, where ledgers are small enough to read whole. */
import type { Meter } from "../tenants/account/meters.ts";
import type { TenantDO } from "../tenants/account/TenantDO.ts";

/** Every event of `meter` (all meters when omitted) the tenant's object holds, up to `limit`. */
export function ledgerEvents(stub: DurableObjectStub<TenantDO>, meter?: Meter, limit = 100_000) {
  return stub.listEvents({
    fromIso: "2000-01-01T00:00:00.000Z",
    toIso: "2100-01-01T00:00:00.000Z",
    ...(meter === undefined ? {} : { meter }),
    limit,
  });
}
