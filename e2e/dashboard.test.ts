/**
 * The usage dashboard in a real headless Chromium against the platform started by the start
 * script: sign in with a key, numbers equal to the API's, a key created and revoked, a file
 * browsed and downloaded byte for byte, tenants kept apart, cross-site forms refused, and a
 * phone's width. What the page looks like to a user is dashboard.ux.test.ts; the time
 * machine's pages are dashboard.versions.test.ts; the world they share is dashboardWorld.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BLOB,
  type Box,
  checkPage,
  type DashboardWorld,
  dashboardWorld,
  type Key,
  SCREENSHOTS,
} from "./dashboardWorld.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let world: DashboardWorld;
let browser: Browser;
let owner: Key;
let workspaceId: string;
let strangerWorkspaceId: string;
let signedIn: BrowserContext;
let page: Page;
let api: DashboardWorld["api"];
let json: DashboardWorld["json"];
let signIn: DashboardWorld["signIn"];

beforeAll(async () => {
  world = await dashboardWorld(platform.url, "chromium");
  ({ browser, owner, workspaceId, strangerWorkspaceId, signedIn, page, api, json, signIn } = world);
});

afterAll(async () => {
  await world?.browser.close();
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
