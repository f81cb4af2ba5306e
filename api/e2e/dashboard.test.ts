/**
 * The usage dashboard in a real headless Chromium against the platform started by the start
 * script: sign in with a key, numbers equal to the API's, a key created and revoked, a file
 * browsed and downloaded byte for byte, tenants kept apart, cross-site forms refused, every
 * page free of axe-core violations (WCAG 2 A/AA), in standards mode and readable at phone
 * width; money in cents with proration explained only after an upgrade, included units on
 * pro, a stacked chart per meter, date inputs, PDF and image previews (the PDF drawn in a
 * sandboxed frame), short run ids whose copy buttons copy the whole id. Screenshots of the
 * pages it visits go to .build/screenshots/; `npm run screenshots` makes docs/dashboard/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, samplePdf, samplePng, signIn as signInAt } from "./dashboardFixtures.ts";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const SCREENSHOTS = join(import.meta.dirname, "../../.build/screenshots");

const platform = sharedPlatform();
let browser: Browser;
let owner: { key: string; auth: Record<string, string> };
/** Upgraded from free to pro a moment into its period: its fee has a prorated part. */
let pro: { key: string; auth: Record<string, string> };
let runId: string;
/** A context without bypassCSP, so the pages (and the PDF frame) run under their own policies. */
let plain: BrowserContext;
let plainPage: Page;
let stranger: { key: string; auth: Record<string, string> };
let workspaceId: string;
let strangerWorkspaceId: string;
let signedIn: BrowserContext;
let page: Page;

/** Every byte value, so a download that re-encodes anything shows. */
const BLOB = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256);

async function api(path: string, key: { auth: Record<string, string> } = owner, init: RequestInit = {}) {
  return fetch(`${platform.url}${path}`, { ...init, headers: { ...key.auth, ...(init.headers ?? {}) } });
}

async function json<T>(path: string, key = owner): Promise<T> {
  const response = await api(path, key);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

const signIn = (context: BrowserContext, key: string) => signInAt(context, platform.url, key);

/** axe-core's WCAG 2 A and AA rules on the page as it stands. */
async function accessibilityViolations(tab: Page): Promise<string[]> {
  await tab.addScriptTag({ content: axe.source });
  const result = await tab.evaluate(async () => {
    const injected = (globalThis as unknown as { axe: typeof axe }).axe;
    return injected.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
  });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** "CSS1Compat" is standards mode; a page without a doctype is "BackCompat" (quirks). */
const compatMode = (tab: Page) =>
  tab.evaluate(() => (globalThis as unknown as { document: { compatMode: string } }).document.compatMode);

/** The parts of a canvas the PDF check reads, typed here: the node project has no DOM library. */
type Canvas = {
  width: number;
  height: number;
  getAttribute(name: string): string | null;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
};

async function checkPage(tab: Page, name: string) {
  expect(await compatMode(tab), `${name} rendering mode`).toBe("CSS1Compat");
  expect(await accessibilityViolations(tab), `${name} accessibility`).toEqual([]);
  await tab.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
  owner = await signUp(platform.url, "owner@example.com");
  stranger = await signUp(platform.url, "stranger@example.com");
  pro = await signUp(platform.url, "pro@example.com");
  const named = await api("/v1/workspaces", owner, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "e2e-reports" }),
  });
  workspaceId = ((await named.json()) as { id: string }).id;
  strangerWorkspaceId = await newWorkspace(platform.url, stranger.auth);
  const put = (path: string, body: BodyInit, who = owner, ws = workspaceId) =>
    api(`/v1/workspaces/${ws}/files/${path}`, who, { method: "PUT", body });
  expect((await put("reports/data.bin", BLOB)).status).toBe(200);
  expect((await put("reports/summary.md", "# Summary\n\nAll green.\n")).status).toBe(200);
  expect((await put("reports/q3.pdf", samplePdf())).status).toBe(200);
  expect((await put("reports/chart.png", samplePng())).status).toBe(200);
  expect((await put("secret.txt", "the stranger's\n", stranger, strangerWorkspaceId)).status).toBe(200);
  const ran = await api(`/v1/workspaces/${workspaceId}/exec`, owner, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ executor: "shell", command: "ls reports; echo done" }),
  });
  expect(ran.status).toBe(200);
  runId = ((await ran.json()) as { id: string }).id;
  expect(
    (
      await api(`/v1/workspaces/${workspaceId}/exec`, owner, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ executor: "shell", command: "echo second" }),
      })
    ).status,
  ).toBe(200);
  // Over a second into the period, so the upgrade's prorated part is not a whole number of cents.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const upgraded = await api("/v1/billing/plan", pro, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ plan: "pro" }),
  });
  expect(upgraded.status).toBe(200);
  // bypassCSP lets the test inject axe-core; the pages themselves run under their CSP.
  signedIn = await browser.newContext({
    bypassCSP: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  page = await signIn(signedIn, owner.key);
  plain = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await plain.grantPermissions(["clipboard-read", "clipboard-write"], { origin: platform.url });
  plainPage = await signIn(plain, owner.key);
});

afterAll(async () => {
  await browser?.close();
});

type Series = { meter: string; total: number };

describe("the dashboard in Chromium", () => {
  it("shows the same numbers as /v1/quotas and /v1/usage", async () => {
    // API first: page views are not metered, so the page must show what the API said last.
    const quotas = await json<{ meters: { meter: string; used: number; limit: number | null }[] }>("/v1/quotas");
    const usage = await json<{ series: Series[] }>("/v1/usage");
    const total = (meter: string) => usage.series.filter((s) => s.meter === meter).reduce((n, s) => n + s.total, 0);

    await page.goto(`${platform.url}/dashboard`);
    const requests = Number(await page.locator("[data-requests]").getAttribute("data-requests"));
    expect(requests).toBe(total("api_requests"));
    for (const row of quotas.meters) {
      const used = Number(
        await page.locator(`#quota-table tr[data-meter="${row.meter}"] [data-used]`).getAttribute("data-used"),
      );
      // The /v1/usage call came after /v1/quotas and counts as one more request.
      expect(used, row.meter).toBe(row.meter === "api_requests" ? row.used + 1 : row.used);
      const bar = page.locator(`#quota-table tr[data-meter="${row.meter}"] meter`);
      // A limit of 0 is a meter the plan does not include: no bar, and it says so.
      if (row.limit === null || row.limit === 0) expect(await bar.count(), row.meter).toBe(0);
      else
        expect(Number(await bar.getAttribute("value")), row.meter).toBe(
          Math.min(100, Math.round((used / row.limit) * 100)),
        );
    }
    await checkPage(page, "overview");

    await page.goto(`${platform.url}/dashboard/usage`);
    for (const meter of ["api_requests", "shell_ms"]) {
      const shown = Number(
        await page.locator(`[data-meter="${meter}"][data-total]`).first().getAttribute("data-total"),
      );
      expect(shown, meter).toBe(total(meter));
    }
    expect(await page.locator("svg[role=img]").count()).toBeGreaterThan(0);
    await checkPage(page, "usage");
  });

  it("creates a key whose secret shows once, and revokes it so the API refuses it", async () => {
    await page.goto(`${platform.url}/dashboard/keys`);
    await page.getByLabel("Name").fill("from the dashboard");
    await page.getByLabel("workspaces:read").check();
    await page.getByRole("button", { name: /create/i }).click();
    const secret = (await page.locator("[data-secret]").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^cub_/);
    const reader = await api(`/v1/workspaces/${workspaceId}`, { auth: { authorization: `Bearer ${secret}` } });
    expect(reader.status).toBe(200);
    await checkPage(page, "keys");

    await page.goto(`${platform.url}/dashboard/keys`);
    expect(await page.locator("[data-secret]").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator("tr", { hasText: "from the dashboard" });
    await row.getByRole("button", { name: /revoke/i }).click();
    await page.waitForURL(`${platform.url}/dashboard/keys`);
    expect(await page.locator("tr", { hasText: "from the dashboard" }).count()).toBe(0);
    const refused = await api(`/v1/workspaces/${workspaceId}`, { auth: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
  });

  it("browses to a file written through the API and downloads it byte for byte", async () => {
    await page.goto(`${platform.url}/dashboard/workspaces`);
    await checkPage(page, "workspaces");
    await page.locator(`a[href*="${workspaceId}"]`).first().click();
    await page.getByRole("link", { name: "reports" }).click();
    await checkPage(page, "workspace");
    await page.getByRole("link", { name: "summary.md" }).click();
    expect(await page.locator("pre").textContent()).toContain("All green.");
    await page.goBack();
    await page.getByRole("link", { name: "data.bin" }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /download/i }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("data.bin");
    const saved = join(SCREENSHOTS, "downloaded.bin");
    await download.saveAs(saved);
    expect(new Uint8Array(readFileSync(saved))).toEqual(BLOB);
  });

  it("shows billing with the upcoming invoice the API reports", async () => {
    const upcoming = await json<{ totalMicros: number }>("/v1/billing/invoices/upcoming");
    await page.goto(`${platform.url}/dashboard/billing`);
    expect(Number(await page.locator("[data-total-micros]").first().getAttribute("data-total-micros"))).toBe(
      upcoming.totalMicros,
    );
    await checkPage(page, "billing");
  });

  it("keeps one tenant's session out of another tenant's workspaces", async () => {
    const own = await page.goto(`${platform.url}/dashboard/workspaces/${workspaceId}`);
    expect(own?.status()).toBe(200);
    const theirs = await page.goto(`${platform.url}/dashboard/workspaces/${strangerWorkspaceId}`);
    expect(theirs?.status()).toBe(404);
    expect(await page.content()).not.toContain("secret.txt");
    const raw = await page.goto(`${platform.url}/dashboard/workspaces/${strangerWorkspaceId}/raw?path=/secret.txt`);
    expect(raw?.status()).toBe(404);
    await page.goto(`${platform.url}/dashboard/workspaces`);
    expect(await page.content()).not.toContain(strangerWorkspaceId);
  });

  it("refuses a cross-site form and a form without the CSRF token", async () => {
    const keysBefore = await json<{ data: { name: string }[] }>("/v1/keys");
    const attacker = await signedIn.newPage();
    await attacker.route("http://evil.test/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>win a prize</title>
          <form id="f" method="post" action="${platform.url}/dashboard/keys">
            <input name="name" value="planted"><input name="scopes" value="keys:manage">
          </form><script>document.getElementById("f").submit()</script>`,
      }),
    );
    const [answer] = await Promise.all([
      attacker.waitForResponse((r) => r.url() === `${platform.url}/dashboard/keys`),
      attacker.goto("http://evil.test/prize.html"),
    ]);
    expect(answer.status()).toBe(403);
    const tokenless = await page.evaluate(async () => {
      const response = await fetch("/dashboard/keys", {
        method: "POST",
        body: new URLSearchParams({ name: "no token" }),
      });
      return response.status;
    });
    expect(tokenless).toBe(403);
    const keysAfter = await json<{ data: { name: string }[] }>("/v1/keys");
    expect(keysAfter.data.map((k) => k.name)).toEqual(keysBefore.data.map((k) => k.name));
  });

  it("fits a phone's width and signs out", async () => {
    const phone = await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 }, isMobile: true });
    const tab = await signIn(phone, owner.key);
    // Runs in the page, where globalThis is its window.
    const overflow = await tab.evaluate(() => {
      const view = globalThis as unknown as {
        innerWidth: number;
        document: { documentElement: { scrollWidth: number } };
      };
      return view.document.documentElement.scrollWidth - view.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await checkPage(tab, "overview-phone");
    // The invoice turns into a list whose amounts and total show without scrolling.
    await tab.goto(`${platform.url}/dashboard/billing`);
    expect(await tab.locator("#upcoming-table").isVisible()).toBe(false);
    const total = tab.locator(".invoice-narrow li.total .amount");
    expect(await total.isVisible()).toBe(true);
    expect(await total.textContent()).toBe("$0.00");
    const box = (await total.boundingBox()) as Box;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await checkPage(tab, "billing-phone");
    await tab.getByRole("button", { name: "Sign out" }).click();
    await tab.waitForURL(`${platform.url}/dashboard/login`);
    const again = await tab.goto(`${platform.url}/dashboard`);
    expect(again?.url()).toBe(`${platform.url}/dashboard/login`);
    await phone.close();
  });
});

type Box = { x: number; y: number; width: number; height: number };

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

describe("the time machine in the dashboard", () => {
  it("shows a workspace's timeline and a diff drawn as a diff, readable on a phone", async () => {
    const created = await api("/v1/workspaces", owner, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "e2e-time-machine" }),
    });
    const ws = ((await created.json()) as { id: string }).id;
    const put = (path: string, body: string) =>
      api(`/v1/workspaces/${ws}/files/${path}`, owner, { method: "PUT", body });
    const post = async <T>(path: string, body: unknown) => {
      const response = await api(`/v1/workspaces/${ws}/${path}`, owner, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as T;
    };
    expect((await put("notes/plan.md", "# Plan\n\n- one\n- two\n")).status).toBe(200);
    const snap = await post<{ id: string }>("snapshots", { name: "before the agent" });
    const run = await post<{ id: string }>("exec", {
      executor: "shell",
      command: "printf '# Plan\\n\\n- one\\n- TWO\\n- three\\n' > notes/plan.md; echo hi > notes/new.txt",
    });
    const restored = await post<{ revision: number }>("restore", { snapshotId: snap.id });

    await page.goto(`${platform.url}/dashboard/workspaces/${ws}`);
    await page.getByRole("link", { name: "Timeline" }).click();
    const rows = page.locator("#timeline-table tbody tr");
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-event")))).toEqual([
      "restore",
      "run",
      "snapshot",
    ]);
    expect(await page.locator(`tr[data-exec-id="${run.id}"]`).count()).toBe(1);
    await checkPage(page, "timeline");

    // The restore's own diff: what it set back.
    await page
      .locator(`tr[data-revision="${restored.revision}"]`)
      .getByRole("link", { name: "What it changed" })
      .click();
    const statuses = await page
      .locator("#diff-files tbody tr")
      .evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute("data-status")} ${tr.getAttribute("data-path")}`));
    expect(statuses.sort()).toEqual(["deleted /notes/new.txt", "modified /notes/plan.md"]);
    const removed = page.locator("pre.diff .diff-del", { hasText: "- TWO" });
    const added = page.locator("pre.diff .diff-add", { hasText: "- two" });
    expect(await removed.count()).toBe(1);
    expect(await added.count()).toBe(1);
    const background = (locator: typeof removed) =>
      locator.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el)
            .backgroundColor,
      );
    // Red and green, drawn by the stylesheet (the page has no inline styles).
    expect(await background(removed)).toBe("rgb(255, 235, 233)");
    expect(await background(added)).toBe("rgb(218, 251, 225)");
    await checkPage(page, "diff");

    const phone = await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 }, isMobile: true });
    const tab = await signIn(phone, owner.key);
    for (const path of [`/dashboard/workspaces/${ws}/timeline`, `/dashboard/workspaces/${ws}/diff?from=${snap.id}`]) {
      await tab.goto(`${platform.url}${path}`);
      const overflow = await tab.evaluate(() => {
        const view = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return view.document.documentElement.scrollWidth - view.innerWidth;
      });
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await checkPage(tab, "diff-phone");
    await phone.close();
  });
});
