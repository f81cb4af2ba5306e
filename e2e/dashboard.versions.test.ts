/**
 * The time machine in the dashboard, in a real headless Chromium: a workspace's timeline of
 * snapshots, runs and restores, and a diff drawn as a diff, readable on a phone. The world it
 * runs in is dashboardWorld.ts.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPage, type DashboardWorld, dashboardWorld, type Key } from "./dashboardWorld.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let world: DashboardWorld;
let browser: Browser;
let owner: Key;
let page: Page;
let api: DashboardWorld["api"];
let signIn: DashboardWorld["signIn"];

beforeAll(async () => {
  world = await dashboardWorld(platform.url, "versions");
  ({ browser, owner, page, api, signIn } = world);
});

afterAll(async () => {
  await world?.browser.close();
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
