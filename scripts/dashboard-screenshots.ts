/**
 * `npm run screenshots`: every dashboard page at desktop (1280 px) and phone (375 px) width,
 * as PNGs in docs/dashboard/. Starts its own platform the way `npm start` does (a free port,
 * a temporary state directory), fills two accounts with workspaces, files, runs and usage
 * (a free one, and one upgraded to pro mid-period), then signs in with real Chromium and
 * saves each page whole. Run it again after changing a page and look at the pictures.
 *
 * Outside the main checkout, point CUBICLE_IMAGES_DIR at its built box image
 * (…/.wrangler/state/images) or the platform builds its own first.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium, samplePdf, samplePng, signIn } from "../e2e/dashboardFixtures.ts";
import { newWorkspace, type Platform, signUp, startPlatform } from "../e2e/platform.ts";

const OUT = join(import.meta.dirname, "../docs/dashboard");

const WIDTHS = [
  { name: "desktop", viewport: { width: 1280, height: 900 }, isMobile: false },
  { name: "phone", viewport: { width: 375, height: 812 }, isMobile: true },
] as const;

type Auth = Record<string, string>;

async function api(platform: Platform, auth: Auth, method: string, path: string, body?: BodyInit | object) {
  const json = body !== undefined && !(body instanceof Uint8Array) && typeof body !== "string";
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { ...auth, ...(json ? { "content-type": "application/json" } : {}) },
    body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

async function namedWorkspace(platform: Platform, auth: Auth, name: string): Promise<string> {
  const response = await api(platform, auth, "POST", "/v1/workspaces", { name });
  return ((await response.json()) as { id: string }).id;
}

async function run(platform: Platform, auth: Auth, workspaceId: string, command: string): Promise<string> {
  const response = await api(platform, auth, "POST", `/v1/workspaces/${workspaceId}/exec`, {
    executor: "shell",
    command,
  });
  return ((await response.json()) as { id: string }).id;
}

/** The free account: two named workspaces with text, an image, a PDF and runs, and a second key. */
async function freeAccount(platform: Platform) {
  const { key, auth } = await signUp(platform.url, "ada@example.com");
  const reports = await namedWorkspace(platform, auth, "quarterly-reports");
  const scratch = await namedWorkspace(platform, auth, "scratch");
  await newWorkspace(platform.url, auth);
  const put = (ws: string, path: string, body: BodyInit) =>
    api(platform, auth, "PUT", `/v1/workspaces/${ws}/files/${path}`, body);
  await put(reports, "reports/summary.md", "# Summary\n\nAll green. Revenue up 12% on the quarter.\n");
  await put(reports, "reports/chart.png", samplePng());
  await put(reports, "reports/q3.pdf", samplePdf());
  await put(
    reports,
    "data.bin",
    Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256),
  );
  const runId = await run(platform, auth, reports, "ls reports; echo done");
  await run(platform, auth, reports, "wc -c reports/summary.md; cat missing.txt");
  await run(platform, auth, scratch, "for i in 1 2 3; do echo line $i; done");
  const ci = await api(platform, auth, "POST", "/v1/keys", { name: "ci runner" });
  const ciAuth = { authorization: `Bearer ${((await ci.json()) as { key: string }).key}` };
  for (let i = 0; i < 5; i++) await api(platform, ciAuth, "GET", `/v1/workspaces/${scratch}`);
  return { key, reports, runId, restoredRevision: await timeMachine(platform, auth, reports) };
}

/** A snapshot, a run that edits the summary (with its own snapshot before it), and a restore; answers the restore's revision. */
async function timeMachine(platform: Platform, auth: Auth, ws: string): Promise<number> {
  const snapshot = await api(platform, auth, "POST", `/v1/workspaces/${ws}/snapshots`, { name: "before the agent" });
  const { id } = (await snapshot.json()) as { id: string };
  await api(platform, auth, "POST", `/v1/workspaces/${ws}/exec`, {
    executor: "shell",
    command:
      "printf '# Summary\\n\\nMostly green. Revenue up 9%% on the quarter.\\n' > reports/summary.md; echo draft > notes.txt",
    snapshot: "before",
  });
  const restored = await api(platform, auth, "POST", `/v1/workspaces/${ws}/restore`, { snapshotId: id });
  return ((await restored.json()) as { revision: number }).revision;
}

/** The pro account: upgraded a moment into its period, so its fee has a prorated part. */
async function proAccount(platform: Platform) {
  const { key, auth } = await signUp(platform.url, "grace@example.com");
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await api(platform, auth, "PUT", "/v1/billing/plan", { plan: "pro" });
  const ws = await namedWorkspace(platform, auth, "agent-sandbox");
  await run(platform, auth, ws, "echo hello from pro");
  return { key };
}

/** Waits for what a page draws after it loads: the PDF frame's pages. */
async function settled(tab: Page) {
  if ((await tab.locator("iframe.pdf-preview").count()) > 0) {
    await tab.frameLocator("iframe.pdf-preview").locator("body[data-rendered]").waitFor({ timeout: 30_000 });
  }
}

async function shoot(browser: Browser, platform: Platform, key: string, pages: [string, string][]) {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: width.viewport, isMobile: width.isMobile });
    const tab = await signIn(context, platform.url, key);
    for (const [name, path] of pages) {
      await tab.goto(`${platform.url}${path}`);
      await settled(tab);
      await tab.screenshot({ path: join(OUT, `${name}-${width.name}.png`), fullPage: true });
      console.log(`docs/dashboard/${name}-${width.name}.png`);
    }
    await context.close();
  }
}

async function main() {
  const platform = await startPlatform();
  const browser = await launchChromium();
  try {
    const free = await freeAccount(platform);
    const pro = await proAccount(platform);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: width.viewport, isMobile: width.isMobile });
      const tab = await context.newPage();
      await tab.goto(`${platform.url}/dashboard/login`);
      await tab.screenshot({ path: join(OUT, `login-${width.name}.png`), fullPage: true });
      await context.close();
    }
    const ws = `/dashboard/workspaces/${free.reports}`;
    await shoot(browser, platform, free.key, [
      ["overview", "/dashboard"],
      ["usage", "/dashboard/usage"],
      ["usage-by-workspace", "/dashboard/usage?groupBy=workspace"],
      ["usage-by-key", "/dashboard/usage?groupBy=key&granularity=hour"],
      ["keys", "/dashboard/keys"],
      ["billing", "/dashboard/billing"],
      ["workspaces", "/dashboard/workspaces"],
      ["workspace", ws],
      ["directory", `${ws}?path=/reports`],
      ["file-text", `${ws}/file?path=/reports/summary.md`],
      ["file-image", `${ws}/file?path=/reports/chart.png`],
      ["file-pdf", `${ws}/file?path=/reports/q3.pdf`],
      ["file-binary", `${ws}/file?path=/data.bin`],
      ["run", `${ws}/runs/${free.runId}`],
      ["timeline", `${ws}/timeline`],
      ["diff", `${ws}/diff?from=${free.restoredRevision - 1}&to=${free.restoredRevision}`],
    ]);
    await shoot(browser, platform, pro.key, [
      ["overview-pro", "/dashboard"],
      ["billing-pro", "/dashboard/billing"],
    ]);
  } finally {
    await browser.close();
    await platform.stop();
    rmSync(platform.stateDir, { recursive: true, force: true });
  }
}

await main();
