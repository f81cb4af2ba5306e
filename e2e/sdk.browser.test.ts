/**
 * The TypeScript SDK in a real headless Chromium: the package bundled for the browser
 * (esbuild, as a user's bundler would), loaded by a page on the platform's origin, drives
 * signup, files, a streamed shell run and usage with the browser's own fetch and streams.
 */
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import { build } from "esbuild";
import { type Browser, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let browser: Browser;
let bundle: string;

beforeAll(async () => {
  const built = build({
    entryPoints: [join(import.meta.dirname, "../sdk-gen/typescript/src/index.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    logLevel: "silent",
  });
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  bundle = (await built).outputFiles[0]?.text ?? "";
});

afterAll(async () => {
  await browser?.close();
});

/**
 * What the page runs: the same calls a browser app would make. Plain JavaScript in the
 * page itself, since a function handed to page.evaluate would carry the test runner's
 * module transforms with it.
 */
const JOURNEY = `
import { Cubicle, NotFoundError } from "./sdk.js";
try {
const baseUrl = location.origin;
const signed = await new Cubicle({ baseUrl }).signup({ email: "browser@example.com" });
const cubicle = new Cubicle({ baseUrl, apiKey: signed.apiKey.key });
const ws = await cubicle.workspaces.create({ name: "from-chromium" });
await ws.files.write("/page.txt", new Uint8Array([104, 105, 10]));
const read = await ws.files.readText("/page.txt");
const events = [];
for await (const event of ws.exec.stream({ executor: "shell", command: "cat page.txt; echo bye" })) events.push(event);
const report = await cubicle.usage.get();
const missing = await cubicle.workspaces.get("ws_00000000000000000000000000").catch((e) => e);
window.journey = {
  read,
  stdout: events.filter((e) => e.stream === "stdout").map((e) => e.text).join(""),
  exit: events.at(-1),
  meters: report.series.map((s) => s.meter),
  notFound: missing instanceof NotFoundError,
  userAgent: navigator.userAgent,
};
} catch (error) {
  window.journeyError = String(error?.stack ?? error);
}
`;

describe("the TypeScript SDK in Chromium", () => {
  it("runs a user's journey with the browser's fetch", async () => {
    const page = await browser.newPage();
    await page.route(`${platform.url}/__sdk/**`, (route) =>
      route.request().url().endsWith("/sdk.js")
        ? route.fulfill({ contentType: "text/javascript", body: bundle })
        : route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><title>sdk</title><script type="module">${JOURNEY}</script>`,
          }),
    );
    await page.goto(`${platform.url}/__sdk/index.html`);
    // These functions run in the page, where globalThis is its window.
    await page.waitForFunction(() => "journey" in globalThis || "journeyError" in globalThis, null, {
      timeout: 60_000,
    });
    expect(await page.evaluate(() => (globalThis as { journeyError?: string }).journeyError)).toBeUndefined();
    const result = await page.evaluate(() => (globalThis as unknown as { journey: Record<string, unknown> }).journey);
    expect(result).toMatchObject({
      read: "hi\n",
      stdout: "hi\nbye\n",
      exit: { stream: "exit", status: "completed", exitCode: 0 },
      notFound: true,
    });
    expect(result.meters).toContain("api_requests");
    expect(result.userAgent).toContain("Chrome");
  });
});
