/**
 * The usage dashboard in a real headless Chromium against the platform started by the start
 * script: sign in with a key, numbers equal to the API's, a key created and revoked, a file
 * browsed and downloaded byte for byte, tenants kept apart, cross-site forms refused, every
 * page free of axe-core violations (WCAG 2 A/AA) and readable at phone width. Screenshots
 * of each page go to .build/screenshots/ (a few are committed under docs/dashboard/).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import axe from "axe-core";
import { type Browser, type BrowserContext, type Page, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const SCREENSHOTS = join(import.meta.dirname, "../../.build/screenshots");

const platform = sharedPlatform();
let browser: Browser;
let owner: { key: string; auth: Record<string, string> };
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

async function signIn(context: BrowserContext, key: string): Promise<Page> {
  const tab = await context.newPage();
  tab.on("dialog", (dialog) => dialog.accept());
  await tab.goto(`${platform.url}/dashboard/login`);
  await tab.getByLabel("API key").fill(key);
  await tab.getByRole("button", { name: "Sign in" }).click();
  await tab.waitForURL(`${platform.url}/dashboard`);
  return tab;
}

/** axe-core's WCAG 2 A and AA rules on the page as it stands. */
async function accessibilityViolations(tab: Page): Promise<string[]> {
  await tab.addScriptTag({ content: axe.source });
  const result = await tab.evaluate(async () => {
    const injected = (globalThis as unknown as { axe: typeof axe }).axe;
    return injected.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
  });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

async function checkPage(tab: Page, name: string) {
  expect(await accessibilityViolations(tab), `${name} accessibility`).toEqual([]);
  await tab.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  owner = await signUp(platform.url, "owner@example.com");
  stranger = await signUp(platform.url, "stranger@example.com");
  workspaceId = await newWorkspace(platform.url, owner.auth);
  strangerWorkspaceId = await newWorkspace(platform.url, stranger.auth);
  const put = (path: string, body: BodyInit, who = owner, ws = workspaceId) =>
    api(`/v1/workspaces/${ws}/files/${path}`, who, { method: "PUT", body });
  expect((await put("reports/data.bin", BLOB)).status).toBe(200);
  expect((await put("reports/summary.md", "# Summary\n\nAll green.\n")).status).toBe(200);
  expect((await put("secret.txt", "the stranger's\n", stranger, strangerWorkspaceId)).status).toBe(200);
  const ran = await api(`/v1/workspaces/${workspaceId}/exec`, owner, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ executor: "shell", command: "ls reports; echo done" }),
  });
  expect(ran.status).toBe(200);
  // bypassCSP lets the test inject axe-core; the pages themselves run under their CSP.
  signedIn = await browser.newContext({
    bypassCSP: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  page = await signIn(signedIn, owner.key);
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
    await tab.getByRole("button", { name: "Sign out" }).click();
    await tab.waitForURL(`${platform.url}/dashboard/login`);
    const again = await tab.goto(`${platform.url}/dashboard`);
    expect(again?.url()).toBe(`${platform.url}/dashboard/login`);
    await phone.close();
  });
});
