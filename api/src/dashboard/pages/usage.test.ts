/**
 * The usage pages inside workerd: every total equals `GET /v1/usage`'s for the same query,
 * breakdowns name the workspace, hours work, a bad range is a 400 with a notice, the CSV
 * export is the same bytes as `GET /v1/usage/events` as CSV, and one tenant's session never
 * shows another's usage.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, createWorkspace, json, signup } from "../../../../test/client.ts";
import { ORIGIN, page, signIn } from "../../../../test/dashboard.ts";

interface UsageReport {
  from: string;
  to: string;
  series: { meter: string; workspaceId?: string | null; keyId?: string | null; total: number }[];
}

async function apiUsage(key: string, query: string): Promise<UsageReport> {
  const response = await call("GET", `/v1/usage${query}`, { key });
  expect(response.status).toBe(200);
  return json<UsageReport>(response);
}

/** Each meter's total as the API sums it (one series per meter, or per group). */
function apiTotals(report: UsageReport): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const one of report.series) totals[one.meter] = (totals[one.meter] ?? 0) + one.total;
  return totals;
}

/** Each meter's `data-total` on a page. */
function pageTotals(html: string): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const match of html.matchAll(/data-meter="([a-z_]+)" data-total="(\d+)"/g)) {
    totals[match[1] as string] = Number(match[2]);
  }
  return totals;
}

const unescapeHtml = (html: string) => html.replaceAll("&amp;", "&");

describe("dashboard usage pages", () => {
  let tenant: { key: string; keyId: string };
  let workspaceId: string;
  let cookie: string;

  beforeAll(async () => {
    tenant = await signup();
    workspaceId = await createWorkspace(tenant.key, { name: "usage-page-ws" });
    for (let i = 0; i < 3; i++) expect((await call("GET", "/v1/account", { key: tenant.key })).status).toBe(200);
    const exec = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
      key: tenant.key,
      json: { executor: "shell", command: "echo hi" },
    });
    expect(exec.status, await exec.clone().text()).toBeLessThan(300);
    cookie = await signIn(tenant.key);
  });

  it("shows each meter's total as GET /v1/usage answers it, with a chart", async () => {
    const api = apiTotals(await apiUsage(tenant.key, ""));
    expect(api.api_requests).toBeGreaterThanOrEqual(6);
    expect(api.shell_ms).toBeGreaterThan(0);
    const response = await page("/dashboard/usage", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    const shown = pageTotals(html);
    expect(shown.api_requests).toBe(api.api_requests);
    expect(shown.shell_ms).toBe(api.shell_ms);
    expect(Object.keys(shown).sort()).toEqual(Object.keys(api).sort());
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="API requests by day, [^"]*in total/);
    expect(html).toMatch(/<title>\d{4}-\d\d-\d\d: [\d,]+<\/title>/);
    expect(html).toContain('<label for="granularity">');
    expect(html).toContain('<label for="groupBy">');
    expect(html).not.toMatch(/\sstyle=/);
  });

  it("breaks totals down by workspace, naming it", async () => {
    const report = await apiUsage(tenant.key, "?groupBy=workspace");
    const response = await page("/dashboard/usage?groupBy=workspace", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(pageTotals(html)).toEqual(apiTotals(report));
    expect(html).toContain("usage-page-ws");
    expect(html).toContain("outside any workspace");
    const inWorkspace = report.series.find((one) => one.meter === "shell_ms" && one.workspaceId === workspaceId);
    expect(html).toContain(`data-group="${workspaceId}" data-group-total="${inWorkspace?.total}"`);
  });

  it("breaks totals down by key, naming it", async () => {
    const report = await apiUsage(tenant.key, "?groupBy=key");
    const html = await (await page("/dashboard/usage?groupBy=key", cookie)).text();
    expect(pageTotals(html)).toEqual(apiTotals(report));
    expect(html).toContain(`data-group="${tenant.keyId}"`);
    expect(html).toMatch(/cub_[^<]*…/);
  });

  it("works by hour over an explicit range", async () => {
    const from = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const query = `?granularity=hour&from=${from}`;
    const api = apiTotals(await apiUsage(tenant.key, query));
    const response = await page(`/dashboard/usage${query}`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(pageTotals(html)).toEqual(api);
    expect(html).toMatch(/aria-label="Shell time by hour, /);
    expect(html).toMatch(/<option value="hour" selected="">/);
  });

  it("answers a bad range or value with 400 and a notice, not a 500", async () => {
    const inverted = await page("/dashboard/usage?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", cookie);
    expect(inverted.status).toBe(400);
    expect(await inverted.text()).toMatch(/class="notice error" role="alert"[^>]*>`from` must be before `to`/);
    const tooLong = await page(
      "/dashboard/usage?granularity=hour&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z",
      cookie,
    );
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("must be at most 31 days");
    const badValue = await page("/dashboard/usage?granularity=week", cookie);
    expect(badValue.status).toBe(400);
    expect(await badValue.text()).toContain("`granularity` must be day or hour");
    expect((await page("/dashboard/usage.csv?from=yesterday", cookie)).status).toBe(400);
  });

  it("exports the ledger as the same CSV bytes as GET /v1/usage/events", async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    // A `to` in the past, so the API's own request (an event itself) falls outside the range.
    const to = new Date().toISOString();
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const range = new URLSearchParams({ from, to }).toString();
    const api = await call("GET", `/v1/usage/events?${range}`, { key: tenant.key, headers: { accept: "text/csv" } });
    expect(api.status).toBe(200);
    const apiCsv = await api.text();
    const response = await page(`/dashboard/usage.csv?${range}`, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const compact = (iso: string) => iso.replace(/\.\d+Z$/, "Z").replaceAll(/[-:]/g, "");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="cubicle-usage-${compact(from)}-${compact(to)}.csv"`,
    );
    const csv = await response.text();
    expect(csv).toBe(apiCsv);
    expect(csv.split("\r\n").length).toBeGreaterThan(6);
    expect(csv).toContain(",shell_ms,");

    const meterOnly = await page(`/dashboard/usage.csv?${range}&meter=shell_ms`, cookie);
    const apiMeterOnly = await call("GET", `/v1/usage/events?${range}&meter=shell_ms`, {
      key: tenant.key,
      headers: { accept: "text/csv" },
    });
    expect(await meterOnly.text()).toBe(await apiMeterOnly.text());
  });

  it("links the CSV download with the page's range", async () => {
    const html = await (await page("/dashboard/usage?granularity=hour", cookie)).text();
    const range = /data-from="([^"]+)" data-to="([^"]+)"/.exec(html);
    const href = /href="(\/dashboard\/usage\.csv\?[^"]+)"/.exec(html)?.[1];
    expect(range && href).toBeTruthy();
    const linked = new URL(unescapeHtml(href as string), ORIGIN);
    expect(linked.searchParams.get("from")).toBe(range?.[1]);
    expect(linked.searchParams.get("to")).toBe(range?.[2]);
    const download = await page(`${linked.pathname}${linked.search}`, cookie);
    expect(download.status).toBe(200);
    expect(await download.text()).toMatch(/^id,meter,quantity,at,workspaceId,keyId,executor\r\n/);
  });

  it("never shows another tenant's usage", async () => {
    const other = await signup();
    const otherCookie = await signIn(other.key);
    const api = apiTotals(await apiUsage(other.key, ""));
    const html = await (await page("/dashboard/usage?groupBy=workspace", otherCookie)).text();
    expect(pageTotals(html)).toEqual(api);
    expect(pageTotals(html).shell_ms).toBeUndefined();
    expect(html).not.toContain(workspaceId);
    expect(html).not.toContain("usage-page-ws");
    const byKey = await (await page("/dashboard/usage?groupBy=key", otherCookie)).text();
    expect(byKey).not.toContain(tenant.keyId);
    const csv = await (await page("/dashboard/usage.csv", otherCookie)).text();
    expect(csv).not.toContain(tenant.keyId);
    expect(csv).not.toContain(workspaceId);
    expect(csv).toContain(other.keyId);
  });
});

describe("dashboard usage charts and dates", () => {
  let tenant: { key: string; keyId: string; tenantId: string };
  let cookie: string;

  beforeAll(async () => {
    tenant = await signup();
    for (const name of ["chart-a", "chart-b"]) {
      const id = await createWorkspace(tenant.key, { name });
      const exec = await call("POST", `/v1/workspaces/${id}/exec`, {
        key: tenant.key,
        json: { executor: "shell", command: "echo hi" },
      });
      expect(exec.status, await exec.clone().text()).toBeLessThan(300);
    }
    cookie = await signIn(tenant.key);
  });

  it("draws a stacked chart per meter when grouped, wide and narrow, with the table below", async () => {
    const html = await (await page("/dashboard/usage?groupBy=workspace", cookie)).text();
    const sections = html.split('<section class="usage-meter"').slice(1);
    expect(sections.length).toBeGreaterThanOrEqual(2);
    for (const section of sections) {
      const figure = section.indexOf('<figure class="chart-figure"');
      const table = section.indexOf('<table class="usage-breakdown"');
      expect(figure, section.slice(0, 200)).toBeGreaterThan(-1);
      expect(table).toBeGreaterThan(figure);
      expect(section).toContain('data-frame="wide"');
      expect(section).toContain('data-frame="narrow"');
    }
    const shell = sections.find((section) => section.includes('id="usage-shell_ms"')) ?? "";
    expect(shell).toMatch(/aria-label="Shell time by day, stacked by 2 groups/);
    expect(shell).toMatch(/<title>chart-(a|b), \d{4}-\d\d-\d\d: [^<]+<\/title>/);
    expect(shell).toContain('class="swatch series-0"');
    expect(shell).toContain('class="swatch series-1"');
  });

  it("takes the range as UTC days, both included, and fills the date inputs back", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await page(`/dashboard/usage?from=${today}&to=${today}&granularity=hour`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    const next = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString();
    expect(html).toContain(`data-from="${today}T00:00:00.000Z" data-to="${next}"`);
    expect(html).toContain(`<input id="from" name="from" type="date" value="${today}"`);
    expect(html).toContain(`<input id="to" name="to" type="date" value="${today}"`);
    const api = apiTotals(await apiUsage(tenant.key, `?granularity=hour&from=${today}T00:00:00Z&to=${next}`));
    expect(pageTotals(html).shell_ms).toBe(api.shell_ms);
    expect((await page("/dashboard/usage?from=2026-02-30", cookie)).status).toBe(400);
  });
});
