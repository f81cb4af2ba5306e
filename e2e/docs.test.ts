/**
 * The API reference renders in a real headless Chromium from the Worker's own assets,
 * with no request leaving the platform's origin.
 */
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let browser: Browser;

beforeAll(async () => {
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
});

afterAll(async () => {
  await browser?.close();
});

describe("/docs", () => {
  it("renders every operation from /openapi.json with no request outside the origin", async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.goto(`${platform.url}/docs`);
    await page.waitForSelector(".opblock-summary", { timeout: 30_000 });

    const summaries = await page.locator(".opblock-summary-path").allInnerTexts();
    const document = (await (await fetch(`${platform.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const path of Object.keys(document.paths)) {
      expect(summaries.map((s) => s.replaceAll("\u200b", "").trim())).toContain(path);
    }
    expect(requested.length).toBeGreaterThan(2);
    const outside = requested.filter((url) => !url.startsWith(platform.url) && !url.startsWith("data:"));
    expect(outside).toEqual([]);
    expect(await page.title()).toBe("Cubicle API reference");
  });

  it("offers the server it was served from, so Try it out calls this platform on its own port", async () => {
    const document = (await (await fetch(`${platform.url}/openapi.json`)).json()) as { servers: { url: string }[] };
    expect(document.servers.map((server) => server.url)).toEqual([platform.url]);
    const page = await browser.newPage();
    await page.goto(`${platform.url}/docs`);
    await page.waitForSelector(".servers select", { timeout: 30_000 });
    expect(await page.locator(".servers select option").allInnerTexts()).toEqual([
      expect.stringContaining(platform.url),
    ]);
  });
});
