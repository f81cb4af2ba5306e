/**
 * What the pages show, read through the same services the API's routes call (`/v1/usage`,
 * `/v1/quotas`, `/v1/billing`…), so every number on the dashboard equals the API's.
 */
import type { Accounts } from "../../../tenants/account/accounts.ts";
import type { Usage } from "../../../tenants/account/usage.ts";
import { seriesRange } from "../routes/usageShared.ts";

export interface DashboardData {
  billing: Awaited<ReturnType<Usage["billing"]>>;
  quotas: Awaited<ReturnType<Usage["quotas"]>>;
  upcoming: Awaited<ReturnType<Usage["upcomingInvoice"]>>;
}

/** The tenant's record; a session outliving its tenant is refused like a missing one. */
export async function accountOf(accounts: Accounts, tenantId: string) {
  const account = await accounts.get(tenantId);
  if (!account) throw new Error(`tenant ${tenantId} no longer exists`);
  return account;
}

/** API requests over `GET /v1/usage`'s default range (by day), as its series sum them. */
export async function requestsOverDefaultRange(usage: Usage, tenantId: string) {
  const range = seriesRange({ granularity: "day" }, Date.now());
  const series = await usage.series(tenantId, {
    ...range,
    granularity: "day",
    groupBy: "meter",
    meter: "api_requests",
  });
  return { total: series.reduce((sum, one) => sum + one.total, 0), ...range };
}
