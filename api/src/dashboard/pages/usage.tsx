/**
 * The usage section: each meter over a range by day or hour (`GET /v1/usage`'s own range
 * rules and service call, so every total equals the API's), broken down by workspace or key
 * on request (a stacked chart per meter with the table below it), and the ledger behind it
 * as a CSV download that is byte for byte `GET /v1/usage/events` with `Accept: text/csv`.
 * The range is picked as dates (UTC days, both ends included); the API's ISO times are
 * still accepted in the query, so links made from API ranges keep working.
 */
import { z } from "@hono/zod-openapi";
import type { Hono } from "hono";
import type { Tenant } from "../../../../tenants/account/accounts.ts";
import { METERS } from "../../../../tenants/account/meters.ts";
import type { Granularity, GroupBy, UsageSeries } from "../../../../tenants/account/usage.ts";
import { ApiError } from "../../errors.ts";
import { compactIso, eventsCsvResponse } from "../../routes/usageCsv.ts";
import { eventsRange, GRANULARITY_MS, Meter, seriesRange, usageLimits } from "../../routes/usageShared.ts";
import { Timestamp } from "../../schemas.ts";
import type { Services } from "../../services.ts";
import { type DashboardContext, type DashboardEnv, hasScope } from "../context.ts";
import { accountOf } from "../data.ts";
import { date, dateTime, meterLabel, quantity, shortId } from "../format.ts";
import { dashboardLimits } from "../limits.ts";
import { CHART_COLOURS, Chart, type ChartSeries } from "../ui/Chart.tsx";
import { Layout } from "../ui/Layout.tsx";
import { TableHead } from "../ui/TableHead.tsx";
import { TableWrap } from "../ui/TableWrap.tsx";

/** A day as a date input sends it, checked to be a real one (no 2026-02-30). */
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((day) => {
    // Zod runs this even when the pattern failed, so it must take any string.
    const ms = Date.parse(`${day}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day);
  });
const DAY_MS = GRANULARITY_MS.day;

/** A range end as typed: a date input's day, or an API-style ISO time. */
const Bound = z.union([Day, Timestamp]);

/** A day picked as `from` starts at its midnight (UTC); one picked as `to` is included whole, up to the next. */
function instantOf(value: string | undefined, end: "from" | "to"): string | undefined {
  if (value === undefined || !Day.safeParse(value).success) return value;
  const startMs = Date.parse(`${value}T00:00:00Z`);
  return new Date(end === "to" ? startMs + DAY_MS : startMs).toISOString();
}

/** What a date input shows for a range end: the day itself, or the day an ISO time falls in (`to`: its last included day). */
export function dayOf(value: string | undefined, end: "from" | "to"): string {
  if (value === undefined) return "";
  if (Day.safeParse(value).success) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return "";
  return new Date(end === "to" ? ms - 1 : ms).toISOString().slice(0, 10);
}

const SeriesQuery = z.object({
  from: Bound.optional(),
  to: Bound.optional(),
  granularity: z.enum(["day", "hour"]).default("day"),
  groupBy: z.enum(["meter", "workspace", "key"]).default("meter"),
});

const EventsQuery = z.object({ from: Timestamp.optional(), to: Timestamp.optional(), meter: Meter.optional() });

/** What each query field must be, in words, for the notice when it is not. */
const FIELD_RULES: Record<string, string> = {
  from: "must be a date like 2026-01-01, or an ISO 8601 time with a zone like 2026-01-01T00:00:00Z",
  to: "must be a date like 2026-01-31, or an ISO 8601 time with a zone like 2026-02-01T00:00:00Z",
  granularity: "must be day or hour",
  groupBy: "must be meter, workspace or key",
  meter: `must be one of ${METERS.join(", ")}`,
};

/** Workspace names looked up per D1 query: under D1's 100 bound parameters with the tenant id beside them. */
const NAME_LOOKUP_CHUNK = 50;

/** The query's fields, with the empty ones an unfilled form submits left out (they mean "the default"). */
function parseQuery<T extends z.ZodTypeAny>(c: DashboardContext, schema: T) {
  const present = Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(present);
  if (parsed.success) return { ok: true as const, query: parsed.data as z.infer<T>, raw: present };
  const field = String(parsed.error.issues[0]?.path[0] ?? "query");
  return { ok: false as const, detail: `\`${field}\` ${FIELD_RULES[field] ?? "is not valid"}`, raw: present };
}

const lacksScope = (c: DashboardContext) => !hasScope(c, "billing:read");
const SCOPE_NOTICE = "This session's key lacks the billing:read scope, which usage needs.";

export function registerUsagePages(dashboard: Hono<DashboardEnv>) {
  dashboard.get("/usage", async (c) => {
    const { tenantId } = c.get("principal");
    const account = await accountOf(c.var.services.accounts, tenantId);
    const page = (props: Omit<UsagePageProps, "account" | "csrf">) => (
      <UsagePage account={account} csrf={c.get("csrf")} {...props} />
    );
    if (lacksScope(c)) return c.html(page({ form: {}, notice: SCOPE_NOTICE }), 403);
    const parsed = parseQuery(c, SeriesQuery);
    if (!parsed.ok) return c.html(page({ form: parsed.raw, notice: parsed.detail }), 400);
    const { query } = parsed;
    let range: { fromIso: string; toIso: string };
    try {
      range = seriesRange({ ...query, from: instantOf(query.from, "from"), to: instantOf(query.to, "to") }, Date.now());
    } catch (error) {
      if (error instanceof ApiError) return c.html(page({ form: parsed.raw, notice: error.detail }), error.status);
      throw error;
    }
    const series = await c.var.services.usage.series(tenantId, {
      ...range,
      granularity: query.granularity,
      groupBy: query.groupBy,
    });
    const names = await groupNames(c.var.services, tenantId, query.groupBy, series);
    return c.html(page({ form: parsed.raw, report: { ...range, ...query, series, names } }));
  });

  dashboard.get("/usage.csv", async (c) => {
    if (lacksScope(c)) return c.text(SCOPE_NOTICE, 403);
    const parsed = parseQuery(c, EventsQuery);
    if (!parsed.ok) return c.text(parsed.detail, 400);
    let range: { fromIso: string; toIso: string };
    try {
      range = eventsRange(parsed.query, Date.now());
    } catch (error) {
      if (error instanceof ApiError) return c.text(error.detail, error.status);
      throw error;
    }
    const { tenantId } = c.get("principal");
    const { usage } = c.var.services;
    // The same read `GET /v1/usage/events` makes for this query, so the file is the same bytes.
    const read = (after: { at: string; id: string } | undefined, limit: number) =>
      usage.events(tenantId, {
        ...range,
        meter: parsed.query.meter,
        workspaceId: undefined,
        keyId: undefined,
        after,
        limit,
      });
    const filename = `cubicle-usage-${compactIso(range.fromIso)}-${compactIso(range.toIso)}.csv`;
    return eventsCsvResponse(read, undefined, filename);
  });
}

/**
 * Names for the groups of a breakdown, by id: a workspace's name, or a key's name and
 * prefix. Groups the services cannot name (deleted workspaces, revoked keys) keep their id.
 */
async function groupNames(
  { workspaces, apiKeys }: Pick<Services, "workspaces" | "apiKeys">,
  tenantId: string,
  groupBy: GroupBy,
  series: UsageSeries[],
) {
  const names = new Map<string, string>();
  if (groupBy === "workspace") {
    const ids = [...new Set(series.map((one) => one.workspaceId).filter((id): id is string => !!id))];
    for (let i = 0; i < ids.length; i += NAME_LOOKUP_CHUNK) {
      const chunk = ids.slice(i, i + NAME_LOOKUP_CHUNK);
      const found = await workspaces.list(tenantId, { limit: chunk.length, ids: chunk });
      for (const workspace of found.data) if (workspace.name) names.set(workspace.id, workspace.name);
    }
  }
  if (groupBy === "key") {
    const wanted = new Set(series.map((one) => one.keyId).filter((id): id is string => !!id));
    // Live keys a page at a time; a tenant holds at most `keysPerTenantMax`, so this ends.
    let cursor: string | undefined;
    while (wanted.size > names.size) {
      const page = await apiKeys.list(tenantId, dashboardLimits.pageRowsMax, cursor);
      for (const key of page.data) if (wanted.has(key.id)) names.set(key.id, `${key.name} (${key.prefix}…)`);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
  }
  return names;
}

interface UsageReport {
  fromIso: string;
  toIso: string;
  granularity: Granularity;
  groupBy: GroupBy;
  series: UsageSeries[];
  names: Map<string, string>;
}

interface UsagePageProps {
  account: Tenant;
  csrf: string;
  /** The query as asked (empty fields left out), to fill the form in again. */
  form: Record<string, string>;
  report?: UsageReport;
  notice?: string;
}

function UsagePage({ account, csrf, form, report, notice }: UsagePageProps) {
  return (
    <Layout title="Usage" section="usage" account={account} csrf={csrf}>
      <UsageFilters form={form} />
      {notice && (
        <p class="notice error" role="alert" data-notice>
          {notice}
        </p>
      )}
      {report && <ReportBody report={report} />}
    </Layout>
  );
}

function UsageFilters({ form }: { form: Record<string, string> }) {
  const granularity = form.granularity ?? "day";
  const groupBy = form.groupBy ?? "meter";
  return (
    <form method="get" action="/dashboard/usage" class="usage-filters" aria-describedby="usage-range-help">
      <div>
        <label for="granularity">Granularity</label>
        <select id="granularity" name="granularity">
          <option value="day" selected={granularity === "day"}>
            By day
          </option>
          <option value="hour" selected={granularity === "hour"}>
            By hour
          </option>
        </select>
      </div>
      <div>
        <label for="groupBy">Group by</label>
        <select id="groupBy" name="groupBy">
          <option value="meter" selected={groupBy === "meter"}>
            Meter
          </option>
          <option value="workspace" selected={groupBy === "workspace"}>
            Workspace
          </option>
          <option value="key" selected={groupBy === "key"}>
            API key
          </option>
        </select>
      </div>
      <div>
        <label for="from">From (UTC day)</label>
        <input id="from" name="from" type="date" value={dayOf(form.from, "from")} />
      </div>
      <div>
        <label for="to">To (UTC day, included)</label>
        <input id="to" name="to" type="date" value={dayOf(form.to, "to")} />
      </div>
      <div class="usage-submit">
        <button type="submit">Show</button>
      </div>
      <p id="usage-range-help" class="muted">
        Leave From and To empty for the last {usageLimits.dayRangeDaysDefault} days by day or the last{" "}
        {usageLimits.hourRangeHoursDefault} hours by hour. Both days are included whole; a range spans at most{" "}
        {usageLimits.dayRangeDaysMax} days by day and {usageLimits.hourRangeDaysMax} by hour.
      </p>
    </form>
  );
}

function ReportBody({ report }: { report: UsageReport }) {
  const { fromIso, toIso, granularity, groupBy } = report;
  const byMeter = new Map<string, UsageSeries[]>();
  for (const one of report.series) byMeter.set(one.meter, [...(byMeter.get(one.meter) ?? []), one]);
  // The meters in their documented order; any the list does not know yet go last.
  const known: readonly string[] = METERS;
  const meters = [
    ...known.filter((meter) => byMeter.has(meter)),
    ...[...byMeter.keys()].filter((m) => !known.includes(m)),
  ];
  const shown = (iso: string) => (granularity === "day" ? date(iso) : dateTime(iso));
  // The last day the range includes: `toIso` is exclusive, the start of the day after.
  const lastDayIso = new Date(Date.parse(toIso) - 1).toISOString();
  const csv = `/dashboard/usage.csv?${new URLSearchParams({ from: fromIso, to: toIso })}`;
  return (
    <>
      <p class="usage-range" data-from={fromIso} data-to={toIso} data-granularity={granularity} data-group-by={groupBy}>
        {granularity === "day" ? (
          <>
            Showing <time datetime={fromIso}>{date(fromIso)}</time> to{" "}
            <time datetime={lastDayIso}>{date(lastDayIso)}</time> by day, both days included.{" "}
          </>
        ) : (
          <>
            Showing <time datetime={fromIso}>{shown(fromIso)}</time> up to <time datetime={toIso}>{shown(toIso)}</time>{" "}
            by hour.{" "}
          </>
        )}
        <a href={csv} download>
          Download these events as CSV
        </a>{" "}
        <span class="muted">
          (the ledger keeps single events for a limited time; older usage shows here only as totals)
        </span>
      </p>
      {meters.length === 0 && <p class="notice">No usage in this range.</p>}
      {meters.map((meter) => {
        const series = byMeter.get(meter) ?? [];
        const total = series.reduce((sum, one) => sum + one.total, 0);
        const headingId = `usage-${meter}`;
        return (
          <section class="usage-meter" aria-labelledby={headingId}>
            <h2 id={headingId}>{meterLabel(meter)}</h2>
            <p class="usage-total">
              Total:{" "}
              <strong data-meter={meter} data-total={total}>
                {quantity(meter, total)}
              </strong>
            </p>
            <Chart
              meter={meter}
              granularity={granularity}
              fromIso={fromIso}
              toIso={toIso}
              series={
                groupBy === "meter"
                  ? [{ key: meter, label: meterLabel(meter), points: series[0]?.points ?? [] }]
                  : chartSeries(groupBy, series, report.names)
              }
              grouped={groupBy !== "meter"}
            />
            {groupBy !== "meter" && (
              <Breakdown meter={meter} groupBy={groupBy} series={series} names={report.names} headingId={headingId} />
            )}
          </section>
        );
      })}
    </>
  );
}

interface BreakdownProps {
  meter: string;
  groupBy: "workspace" | "key";
  series: UsageSeries[];
  names: Map<string, string>;
  headingId: string;
}

/** A group's id (null for usage outside any workspace or key) and the words it shows as. */
function groupOf(groupBy: "workspace" | "key", row: UsageSeries, names: Map<string, string>) {
  const id = (groupBy === "workspace" ? row.workspaceId : row.keyId) ?? null;
  const nobody = groupBy === "workspace" ? "outside any workspace" : "not made with a key";
  return { id, name: id === null ? undefined : names.get(id), nobody };
}

/**
 * A breakdown as chart series, largest at the bottom. Past the chart's colours, the
 * smallest groups are summed into one "others" series; the table below still lists each.
 */
function chartSeries(groupBy: "workspace" | "key", series: UsageSeries[], names: Map<string, string>): ChartSeries[] {
  const rows = [...series].sort((a, b) => b.total - a.total);
  const shown = rows.length > CHART_COLOURS ? rows.slice(0, CHART_COLOURS - 1) : rows;
  const rest = rows.slice(shown.length);
  const out: ChartSeries[] = shown.map((row) => {
    const { id, name, nobody } = groupOf(groupBy, row, names);
    return { key: id ?? "", label: id === null ? nobody : (name ?? shortId(id)), points: row.points };
  });
  if (rest.length > 0) {
    const summed = new Map<string, number>();
    for (const row of rest) {
      for (const point of row.points) summed.set(point.start, (summed.get(point.start) ?? 0) + point.quantity);
    }
    const points = [...summed].sort(([a], [b]) => a.localeCompare(b)).map(([start, quantity]) => ({ start, quantity }));
    out.push({ key: "others", label: `${rest.length} others`, points });
  }
  return out;
}

/** One meter's total per workspace or key, largest first. */
function Breakdown({ meter, groupBy, series, names, headingId }: BreakdownProps) {
  const rows = [...series].sort((a, b) => b.total - a.total);
  return (
    <TableWrap label="Usage breakdown">
      <table class="usage-breakdown" aria-labelledby={headingId}>
        <TableHead
          columns={[{ label: groupBy === "workspace" ? "Workspace" : "API key" }, { label: "Total", num: true }]}
        />
        <tbody>
          {rows.map((row) => {
            const { id, name, nobody } = groupOf(groupBy, row, names);
            return (
              <tr data-group={id ?? ""} data-group-total={row.total}>
                <th scope="row">
                  {id === null ? <span class="muted">{nobody}</span> : (name ?? id)}
                  {id !== null && name !== undefined && <span class="muted usage-id"> {id}</span>}
                </th>
                <td class="num">{quantity(meter, row.total)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
