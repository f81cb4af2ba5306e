/**
 * The dashboard as a user sees it, in a real headless Chromium: every page in standards mode
 * with no script errors, money in cents with proration explained only after an upgrade, a
 * stacked chart per meter with date inputs, PDF (drawn in a sandboxed frame) and image
 * previews, short run ids whose copy buttons copy the whole id, and breadcrumbs naming the
 * workspace. The world it runs in is dashboardWorld.ts.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Box,
  type Canvas,
  checkPage,
  compatMode,
  type DashboardWorld,
  dashboardWorld,
  type Key,
} from "./dashboardWorld.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let world: DashboardWorld;
let browser: Browser;
let pro: Key;
let runId: string;
let workspaceId: string;
let page: Page;
let plainPage: Page;
let json: DashboardWorld["json"];
let signIn: DashboardWorld["signIn"];

beforeAll(async () => {
  world = await dashboardWorld(platform.url, "ux");
  ({ browser, pro, runId, workspaceId, page, plainPage, json, signIn } = world);
});

afterAll(async () => {
  await world?.browser.close();
});

describe("the dashboard as a user sees it", () => {
  it("renders every page in standards mode, with no script errors", async () => {
    const errors: string[] = [];
    plainPage.on("pageerror", (error) => errors.push(error.message));
    const ws = `/dashboard/workspaces/${workspaceId}`;
    for (const path of [
      "/dashboard/login",
      "/dashboard",
      "/dashboard/usage",
      "/dashboard/usage?groupBy=key",
      "/dashboard/keys",
      "/dashboard/billing",
      "/dashboard/workspaces",
      ws,
      `${ws}/file?path=/reports/summary.md`,
      `${ws}/runs/${runId}`,
    ]) {
      await plainPage.goto(`${platform.url}${path}`);
      expect(await compatMode(plainPage), path).toBe("CSS1Compat");
    }
    expect(errors).toEqual([]);
  });

  it("shows money in cents, and explains proration only after an upgrade", async () => {
    const upcoming = await json<{ feeMicros: number; fees: { upgradedFrom: string | null; amountMicros: number }[] }>(
      "/v1/billing/invoices/upcoming",
      pro,
    );
    const upgrade = upcoming.fees.find((fee) => fee.upgradedFrom === "free");
    expect(upgrade?.amountMicros).toBeGreaterThan(19_000_000);
    expect(upgrade?.amountMicros).toBeLessThan(20_000_000);
    // bypassCSP for axe-core in checkPage below.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const tab = await signIn(context, pro.key);
    await tab.goto(`${platform.url}/dashboard/billing`);
    const row = tab.locator('#upcoming-table tr[data-prorated="true"]');
    expect(await row.locator("th").textContent()).toBe("Upgrade to pro");
    expect(await row.textContent()).toMatch(/from free on .* the \$20\.00 monthly difference, prorated to the .* left/);
    // Seconds into the period the part is $19.99999x in micro-dollars: the page rounds it to the cent.
    expect((upgrade?.amountMicros ?? 0) % 10_000).not.toBe(0);
    const cents = `$${(Math.round((upgrade?.amountMicros ?? 0) / 10_000) / 100).toFixed(2)}`;
    expect((await row.locator("td.num").textContent())?.trim()).toBe(cents);
    // Every amount on the page has exactly two decimals (unit prices, "$0.50 per …", keep their digits).
    const amounts = await tab
      .locator(".card .value, #upcoming-table td.num:last-child, .invoice-narrow .amount")
      .allTextContents();
    const dollars = amounts.map((one) => one.trim()).filter((one) => one.startsWith("$"));
    expect(dollars.length).toBeGreaterThan(10);
    for (const amount of dollars) expect(amount).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await tab.getByLabel("Spend cap in US dollars").count()).toBe(1);

    await tab.goto(`${platform.url}/dashboard`);
    const quotas = tab.locator("#quota-table");
    expect(await quotas.textContent()).not.toContain("no limit");
    expect(await quotas.locator('tr[data-meter="api_requests"]').textContent()).toMatch(/of 2,000,000 included/);
    expect(await quotas.locator("thead").textContent()).toContain("Overage so far");
    await checkPage(tab, "overview-pro");
    await context.close();

    await plainPage.goto(`${platform.url}/dashboard/billing`);
    const free = plainPage.locator("#upcoming-table");
    expect(await free.locator('tr[data-prorated="true"]').count()).toBe(0);
    expect(await free.textContent()).not.toMatch(/prorat|upgrade/i);
    expect((await free.locator("tfoot td").textContent())?.trim()).toBe("$0.00");
    expect(await plainPage.getByLabel("Spend cap in US dollars").count()).toBe(0);
    expect(await plainPage.locator("main").textContent()).toContain("the free plan has hard limits");
  });

  it("draws a stacked chart per meter above its table, as wide as the page, and picks dates with date inputs", async () => {
    await plainPage.goto(`${platform.url}/dashboard/usage?groupBy=workspace`);
    const mainBox = (await plainPage.locator("main h1").boundingBox()) as Box;
    const sections = plainPage.locator("section.usage-meter");
    expect(await sections.count()).toBeGreaterThanOrEqual(2);
    for (const section of await sections.all()) {
      const name = await section.locator("h2").textContent();
      const charts = section.locator("svg.usage-chart:visible");
      expect(await charts.count(), `${name}: one visible chart`).toBe(1);
      const chart = (await charts.boundingBox()) as Box;
      const table = (await section.locator("table").boundingBox()) as Box;
      expect(table.y, `${name}: the table below the chart`).toBeGreaterThan(chart.y + chart.height);
      // The h1 spans main's content box: the chart takes all of it.
      expect(chart.width, `${name}: the chart's width`).toBeGreaterThan(mainBox.width * 0.95);
      const groups = await section.locator("table tbody tr").count();
      expect(await section.locator(".chart-legend li:visible").count(), `${name}: a legend entry per group`).toBe(
        groups,
      );
    }
    await plainPage.setViewportSize({ width: 375, height: 812 });
    expect(await plainPage.locator("svg.chart-narrow:visible").count()).toBe(await sections.count());
    expect(await plainPage.locator("svg.chart-wide:visible").count()).toBe(0);
    await plainPage.setViewportSize({ width: 1280, height: 900 });

    expect(await plainPage.locator("#from").getAttribute("type")).toBe("date");
    expect(await plainPage.locator("#to").getAttribute("type")).toBe("date");
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await plainPage.locator("#from").fill(weekAgo);
    await plainPage.locator("#to").fill(today);
    await plainPage.getByRole("button", { name: "Show" }).click();
    await plainPage.waitForURL(/from=/);
    const range = plainPage.locator(".usage-range");
    expect(await range.getAttribute("data-from")).toBe(`${weekAgo}T00:00:00.000Z`);
    expect(await range.getAttribute("data-to")).toBe(
      new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString(),
    );
    expect(await plainPage.locator("#from").inputValue()).toBe(weekAgo);
  });

  it("previews a PDF in a sandboxed frame, drawn, and an image inline", async () => {
    const ws = `${platform.url}/dashboard/workspaces/${workspaceId}`;
    await plainPage.goto(`${ws}/file?path=/reports/q3.pdf`);
    const frameElement = plainPage.locator("iframe.pdf-preview");
    expect(await frameElement.getAttribute("sandbox")).toBe("allow-scripts");
    const frame = plainPage.frameLocator("iframe.pdf-preview");
    await frame.locator("body[data-rendered='1']").waitFor({ timeout: 30_000 });
    const inside = await frame.locator("body").evaluate((body) => {
      const canvas = body.querySelector("canvas") as unknown as Canvas;
      const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
      let inked = 0;
      for (let i = 0; i < pixels.length; i += 4) if ((pixels[i] ?? 255) < 128) inked++;
      const view = globalThis as unknown as { origin: string; parent: { document: { cookie: string } } };
      let parentReadable = true;
      try {
        void view.parent.document.cookie;
      } catch {
        parentReadable = false;
      }
      return {
        origin: view.origin,
        inked,
        width: canvas.width,
        parentReadable,
        label: canvas.getAttribute("aria-label"),
      };
    });
    // An opaque origin: nothing of the dashboard's (cookies, DOM, storage) is reachable from the frame.
    expect(inside.origin).toBe("null");
    expect(inside.parentReadable).toBe(false);
    expect(inside.label).toBe("Page 1 of 1");
    // The heading and the blue bar put ink on the page.
    expect(inside.inked).toBeGreaterThan(1_000);
    expect(inside.width).toBeGreaterThan(600);
    // axe needs its script injected, which only the bypassCSP context allows.
    await page.goto(`${ws}/file?path=/reports/q3.pdf`);
    await page.frameLocator("iframe.pdf-preview").locator("body[data-rendered='1']").waitFor({ timeout: 30_000 });
    await checkPage(page, "file-pdf");

    await plainPage.goto(`${ws}/file?path=/reports/chart.png`);
    const image = plainPage.locator('img[data-preview="image"]');
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(240);
  });

  it("shortens run ids, copies the whole id, and names the workspace in every breadcrumb", async () => {
    const ws = `${platform.url}/dashboard/workspaces/${workspaceId}`;
    await plainPage.goto(ws);
    const cell = plainPage.locator(`#runs-table tr[data-exec-id="${runId}"] th`);
    const shown = (await cell.locator("code").textContent()) ?? "";
    expect(shown.length).toBeLessThan(runId.length);
    expect(runId.endsWith(shown.slice(shown.indexOf("…") + 1))).toBe(true);
    // One line: the id no longer wraps.
    const lines = await cell.locator("code").evaluate((code) => code.getClientRects().length);
    expect(lines).toBe(1);
    await cell.getByRole("button", { name: /copy the full run id/i }).click();
    await expect.poll(() => cell.getByRole("button").textContent()).toBe("Copied");
    expect(
      await plainPage.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(runId);

    const crumbs = async () => (await plainPage.locator("nav.breadcrumb li").allTextContents()).join(" / ");
    expect(await crumbs()).toContain("e2e-reports");
    await plainPage.goto(`${ws}/file?path=/reports/summary.md`);
    expect(await crumbs()).toBe("Workspaces / e2e-reports / reports / summary.md");
    await plainPage.goto(`${ws}/runs/${runId}`);
    expect(await crumbs()).toContain("e2e-reports");
    expect(await crumbs()).not.toContain(workspaceId);
    await page.goto(`${ws}/runs/${runId}`);
    await checkPage(page, "run");
  });
});
