/**
 * What the dashboard's browser tests share (dashboard.test.ts, dashboard.ux.test.ts,
 * dashboard.versions.test.ts): three tenants (an owner with files and two runs, a stranger
 * with a workspace of their own, one upgraded from free to pro a moment into its period), a
 * Chromium with the owner signed in twice, and `checkPage`, which every page visited passes:
 * standards mode, no axe-core violations (WCAG 2 A/AA), and a screenshot in
 * .build/screenshots/ (`npm run screenshots` makes docs/dashboard/).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { launchChromium, samplePdf, samplePng, signIn as signInAt } from "./dashboardFixtures.ts";
import { newWorkspace, signUp } from "./platform.ts";

export const SCREENSHOTS = join(import.meta.dirname, "../.build/screenshots");

/** Every byte value, so a download that re-encodes anything shows. */
export const BLOB = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256);

/** A bounding box as playwright answers it. */
export type Box = { x: number; y: number; width: number; height: number };

export type Key = { key: string; auth: Record<string, string> };

export interface DashboardWorld {
  browser: Browser;
  owner: Key;
  /** Upgraded from free to pro a moment into its period: its fee has a prorated part. */
  pro: Key;
  stranger: Key;
  workspaceId: string;
  strangerWorkspaceId: string;
  runId: string;
  /** bypassCSP, so a test may inject axe-core; the pages themselves run under their CSP. */
  signedIn: BrowserContext;
  page: Page;
  /** A context without bypassCSP, so the pages (and the PDF frame) run under their own policies. */
  plain: BrowserContext;
  plainPage: Page;
  /** A request to the platform, as `key` (the owner by default). */
  api(path: string, key?: { auth: Record<string, string> }, init?: RequestInit): Promise<Response>;
  /** A GET that must answer 200, as JSON. */
  json<T>(path: string, key?: { auth: Record<string, string> }): Promise<T>;
  signIn(context: BrowserContext, key: string): Promise<Page>;
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

/** "CSS1Compat" is standards mode; a page without a doctype is "BackCompat" (quirks). */
export const compatMode = (tab: Page) =>
  tab.evaluate(() => (globalThis as unknown as { document: { compatMode: string } }).document.compatMode);

/** The parts of a canvas the PDF check reads, typed here: the node project has no DOM library. */
export type Canvas = {
  width: number;
  height: number;
  getAttribute(name: string): string | null;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
};

export async function checkPage(tab: Page, name: string) {
  expect(await compatMode(tab), `${name} rendering mode`).toBe("CSS1Compat");
  expect(await accessibilityViolations(tab), `${name} accessibility`).toEqual([]);
  await tab.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
}

/**
 * Sets the world up: `tag` keeps each file's tenants apart on the platform the e2e files
 * share (their sign-up emails are unique per tag).
 */
export async function dashboardWorld(url: string, tag: string): Promise<DashboardWorld> {
  const owner = await signUp(url, `owner-${tag}@example.com`);
  const api = (path: string, key: { auth: Record<string, string> } = owner, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { ...key.auth, ...(init.headers ?? {}) } });
  const json = async <T>(path: string, key = owner): Promise<T> => {
    const response = await api(path, key);
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    return (await response.json()) as T;
  };
  const signIn = (context: BrowserContext, key: string) => signInAt(context, url, key);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await launchChromium();
  const stranger = await signUp(url, `stranger-${tag}@example.com`);
  const pro = await signUp(url, `pro-${tag}@example.com`);
  const named = await api("/v1/workspaces", owner, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "e2e-reports" }),
  });
  const workspaceId = ((await named.json()) as { id: string }).id;
  const strangerWorkspaceId = await newWorkspace(url, stranger.auth);
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
  const runId = ((await ran.json()) as { id: string }).id;
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
  const signedIn = await browser.newContext({
    bypassCSP: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  const page = await signIn(signedIn, owner.key);
  const plain = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await plain.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
  const plainPage = await signIn(plain, owner.key);
  return {
    browser,
    owner,
    pro,
    stranger,
    workspaceId,
    strangerWorkspaceId,
    runId,
    signedIn,
    page,
    plain,
    plainPage,
    api,
    json,
    signIn,
  };
}
