/** `cubicle.usage`, `cubicle.quotas` and `cubicle.billing`: what you used and what it costs. */
import {
  changePlan,
  getBilling,
  getQuotas,
  getUpcomingInvoice,
  getUsage,
  listInvoices,
  listUsageEvents,
  setSpendCap,
} from "../generated/sdk.gen.ts";
import type {
  ChangePlanData,
  GetUsageData,
  Invoice,
  ListUsageEventsData,
  UsageEvent,
  UsageReport,
} from "../generated/types.gen.ts";
import type { Core, RequestOptions } from "./core.ts";
import { Pager } from "./pagination.ts";

export class Usage {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  /** Series per meter (or per workspace or key) over `from`–`to`, by hour or day. */
  async get(query: GetUsageData["query"] = {}, options: RequestOptions = {}): Promise<UsageReport> {
    const { data } = await getUsage({ ...this.core.options(options), query });
    return data as UsageReport;
  }

  /** The ledger's events, page by page. */
  events(
    query: Omit<NonNullable<ListUsageEventsData["query"]>, "cursor"> = {},
    options: RequestOptions = {},
  ): Pager<UsageEvent> {
    return new Pager(async (cursor) => {
      const { data } = await listUsageEvents({ ...this.core.options(options), query: { ...query, cursor } });
      return { items: data.data, nextCursor: data.nextCursor };
    });
  }
}

export class Quotas {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  async get(options: RequestOptions = {}) {
    const { data } = await getQuotas(this.core.options(options));
    return data;
  }
}

export class Billing {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  /** Plan, current period, spend cap and cost so far. */
  async get(options: RequestOptions = {}) {
    const { data } = await getBilling(this.core.options(options));
    return data;
  }

  async changePlan(plan: ChangePlanData["body"]["plan"], options: RequestOptions = {}) {
    const { data } = await changePlan({ ...this.core.options(options), body: { plan } });
    return data;
  }

  /** Caps the period's spend (micro-dollars); `null` removes the cap. */
  async setSpendCap(amountMicros: number | null, options: RequestOptions = {}) {
    const { data } = await setSpendCap({ ...this.core.options(options), body: { amountMicros } });
    return data;
  }

  /** The current period's invoice as it stands. */
  async upcomingInvoice(options: RequestOptions = {}) {
    const { data } = await getUpcomingInvoice(this.core.options(options));
    return data;
  }

  /** Closed invoices, newest first. */
  invoices(options: RequestOptions & { limit?: number } = {}): Pager<Invoice> {
    return new Pager(async (cursor) => {
      const { data } = await listInvoices({ ...this.core.options(options), query: { limit: options.limit, cursor } });
      return { items: data.data, nextCursor: data.nextCursor };
    });
  }
}
