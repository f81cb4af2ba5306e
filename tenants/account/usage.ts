/**
 * Usage, quotas and billing for the gateway and the dashboard: one service, so `/v1/usage`,
 * `/v1/quotas`, `/v1/billing` and the dashboard read the same numbers. Decisions and the
 * ledger live in the tenant's object (TenantDO); hourly rollups and closed invoices in D1.
 */
import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import type { EventQuery } from "./ledger/events.ts";
import type { FeeLine, InvoiceBody, InvoiceLine } from "./ledger/invoice.ts";
import type { Meter, UsagePoint } from "./meters.ts";
import type { AdmitRequest } from "./rpc.ts";
import { invoices, usageRollups } from "./schema.ts";
import type { TenantDO } from "./TenantDO.ts";

export type Granularity = "hour" | "day";
export type GroupBy = "meter" | "workspace" | "key";

export interface UsageSeries {
  meter: Meter;
  /** Set when grouped by workspace or key ('' events had none: account-level requests). */
  workspaceId?: string | null;
  keyId?: string | null;
  total: number;
  points: UsagePoint[];
}

export interface ClosedInvoice extends InvoiceBody {
  id: string;
  createdAt: string;
}

export class Usage {
  constructor(
    private readonly namespace: DurableObjectNamespace<TenantDO>,
    private readonly db: Db,
  ) {}

  ledger(tenantId: string) {
    return this.namespace.getByName(tenantId);
  }

  admit(tenantId: string, request: AdmitRequest) {
    return this.ledger(tenantId).admit(request);
  }
  storageChanged(tenantId: string, workspaceId: string, sizeBytes: number, revision: number) {
    return this.ledger(tenantId).storageChanged(workspaceId, sizeBytes, revision);
  }
  events(tenantId: string, query: EventQuery) {
    return this.ledger(tenantId).listEvents(query);
  }
  quotas(tenantId: string) {
    return this.ledger(tenantId).quotas();
  }
  /** The plan's history window and snapshot and fork quotas. */
  versionTerms(tenantId: string) {
    return this.ledger(tenantId).versionTerms();
  }
  billing(tenantId: string) {
    return this.ledger(tenantId).billing();
  }
  upcomingInvoice(tenantId: string) {
    return this.ledger(tenantId).upcomingInvoice();
  }
  changePlan(tenantId: string, plan: string) {
    return this.ledger(tenantId).changePlan(plan);
  }
  setSpendCap(tenantId: string, amountMicros: number | null) {
    return this.ledger(tenantId).setSpendCap(amountMicros);
  }

  /**
   * Usage per meter (and per workspace or key) in [from, to), from the hourly rollups after
   * the tenant's pending events are rolled in, so the answer includes the last request.
   * `from` and `to` must lie on the granularity's boundaries (the route aligns them).
   */
  async series(
    tenantId: string,
    query: { fromIso: string; toIso: string; granularity: Granularity; groupBy: GroupBy; meter?: Meter | undefined },
  ): Promise<UsageSeries[]> {
    await this.ledger(tenantId).flush();
    const bucket =
      query.granularity === "hour"
        ? usageRollups.hour
        : sql<string>`substr(${usageRollups.hour}, 1, 10) || 'T00:00:00.000Z'`;
    const group =
      query.groupBy === "workspace"
        ? usageRollups.workspaceId
        : query.groupBy === "key"
          ? usageRollups.keyId
          : sql<string>`''`;
    const rows = await this.db
      .select({
        meter: usageRollups.meter,
        group: sql<string>`${group}`.as("grp"),
        start: sql<string>`${bucket}`.as("start"),
        quantity: sql<number>`sum(${usageRollups.quantity})`.as("quantity"),
      })
      .from(usageRollups)
      .where(
        and(
          eq(usageRollups.tenantId, tenantId),
          gte(usageRollups.hour, query.fromIso),
          lt(usageRollups.hour, query.toIso),
          query.meter ? eq(usageRollups.meter, query.meter) : undefined,
        ),
      )
      .groupBy(sql`1`, sql`2`, sql`3`)
      .orderBy(sql`1`, sql`2`, sql`3`);
    const series = new Map<string, UsageSeries>();
    for (const row of rows) {
      const id = `${row.meter}\u0000${row.group}`;
      let entry = series.get(id);
      if (!entry) {
        entry = { meter: row.meter as Meter, total: 0, points: [] };
        if (query.groupBy === "workspace") entry.workspaceId = row.group || null;
        if (query.groupBy === "key") entry.keyId = row.group || null;
        series.set(id, entry);
      }
      entry.total += row.quantity;
      entry.points.push({ start: row.start, quantity: row.quantity });
    }
    return [...series.values()];
  }

  /** Closed invoices, oldest period first (ids sort by period end), paginated by invoice id. */
  async invoices(tenantId: string, limit: number, cursor?: string): Promise<ClosedInvoice[]> {
    const rows = await this.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.tenantId, tenantId), cursor ? gt(invoices.id, cursor) : undefined))
      .orderBy(asc(invoices.id))
      .limit(limit);
    return rows.map((row) => {
      const stored = JSON.parse(row.lines) as { feeMicros: number; fees?: FeeLine[]; lines: InvoiceLine[] };
      // Invoices closed before fees had parts: the fee as one part from the period's start.
      const fees = stored.fees ?? [
        {
          plan: row.plan,
          upgradedFrom: null,
          from: row.periodStart,
          monthlyMicros: stored.feeMicros,
          amountMicros: stored.feeMicros,
        },
      ];
      return {
        id: row.id,
        plan: row.plan,
        periodStart: row.periodStart,
        periodEnd: row.periodEnd,
        feeMicros: stored.feeMicros,
        fees,
        lines: stored.lines,
        totalMicros: row.totalMicros,
        createdAt: row.createdAt,
      };
    });
  }
}
