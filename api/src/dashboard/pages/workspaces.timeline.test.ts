/**
 * The workspace timeline and diff pages over HTTP in workerd, with snapshots, runs and
 * restores made through the API: events in time order with their links, a diff drawn as a
 * diff (file list by status, lines classed, content escaped), the patch left to the API when
 * too large, notices for missing scopes, and 404s for another tenant's session.
 */
import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, signup } from "../../../../test/client.ts";
import { page, signIn } from "../../../../test/dashboard.ts";

/** Lets the clock move, so events made one after another have distinct times. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function tenant() {
  const { key } = await signup();
  const id = await createWorkspace(key, { name: "machine" });
  const cookie = await signIn(key);
  const put = async (path: string, body: BodyInit) => {
    const response = await call("PUT", `/v1/workspaces/${id}/files/${path}`, { key, body });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const post = async <T>(path: string, json: unknown = {}) => {
    const response = await call("POST", `/v1/workspaces/${id}/${path}`, { key, json });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    await tick();
    return (await response.json()) as T;
  };
  return { key, id, cookie, put, post };
}

/** The `data-event` rows of the timeline, in page order, as `kind:id`. */
function events(html: string): string[] {
  return [...html.matchAll(/<tr data-event="(\w+)" data-(?:snapshot-id|exec-id|revision)="([^"]+)"/g)].map(
    (m) => `${m[1]}:${m[2]}`,
  );
}

describe("the timeline", () => {
  it("lists snapshots, runs and restores newest first, linking each snapshot and restore to its diff", async () => {
    const { id, cookie, put, post } = await tenant();
    await put("notes/plan.md", "one\n");
    const snap = await post<{ id: string }>("snapshots", { name: "base" });
    const run = await post<{ id: string; snapshotId: string }>("exec", {
      executor: "shell",
      command: "echo two >> notes/plan.md",
      snapshot: "before",
    });
    const restored = await post<{ revision: number }>("restore", { snapshotId: snap.id });

    const response = await page(`/dashboard/workspaces/${id}/timeline`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(events(html)).toEqual([
      `restore:${restored.revision}`,
      `run:${run.id}`,
      `snapshot:${run.snapshotId}`,
      `snapshot:${snap.id}`,
    ]);
    expect(html).toContain(`href="/dashboard/workspaces/${id}/diff?from=${snap.id}&amp;to=live"`);
    // The restore names the version it went back to.
    expect(html).toMatch(new RegExp(`revision ${restored.revision}(<!-- -->)? · back to (<!-- -->)?${snap.id}`));
    expect(html).toContain(
      `href="/dashboard/workspaces/${id}/diff?from=${restored.revision - 1}&amp;to=${restored.revision}"`,
    );
    // The snapshot taken before the run names it.
    const before = html.slice(html.indexOf(`data-snapshot-id="${run.snapshotId}"`));
    expect(before.slice(0, before.indexOf("</tr>"))).toContain(`href="/dashboard/workspaces/${id}/runs/${run.id}"`);
    expect(html).toContain("“base”");
    expect(html).not.toContain("data-timeline-cut");
    // The workspace page links here.
    expect(await (await page(`/dashboard/workspaces/${id}`, cookie)).text()).toContain(
      `href="/dashboard/workspaces/${id}/timeline"`,
    );
  });

  it("says so when there is nothing yet", async () => {
    const { id, cookie } = await tenant();
    const html = await (await page(`/dashboard/workspaces/${id}/timeline`, cookie)).text();
    expect(html).toContain('data-empty="timeline"');
  });
});

describe("the diff page", () => {
  it("lists each change by status and draws the patch with removed and added lines apart, escaped", async () => {
    const { key, id, cookie, put, post } = await tenant();
    await put("src/app.html", "<p>old</p>\nsame\n");
    await put("src/gone.txt", "bye\n");
    await put("src/draft.md", "draft\n");
    const snap = await post<{ id: string }>("snapshots");
    await put("src/app.html", "<p>new</p>\nsame\n");
    await put("src/added.txt", "hi\n");
    expect((await call("DELETE", `/v1/workspaces/${id}/files/src/gone.txt`, { key })).status).toBe(200);
    await post("fs/move", { from: "/src/draft.md", to: "/src/final.md" });

    const response = await page(`/dashboard/workspaces/${id}/diff?from=${snap.id}&to=live`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    const rows = [...html.matchAll(/<tr data-path="([^"]+)" data-status="(\w+)"/g)].map((m) => `${m[2]} ${m[1]}`);
    expect(rows.sort()).toEqual([
      "added /src/added.txt",
      "deleted /src/gone.txt",
      "modified /src/app.html",
      "renamed /src/final.md",
    ]);
    expect(html).toContain("/src/draft.md → /src/final.md");
    expect(html).toContain('<span class="diff-del">-&lt;p&gt;old&lt;/p&gt;</span>');
    expect(html).toContain('<span class="diff-add">+&lt;p&gt;new&lt;/p&gt;</span>');
    expect(html).toContain('<span class="diff-context"> same</span>');
    expect(html).toContain('<span class="diff-hunk">@@ -1,2 +1,2 @@</span>');
    expect(html).not.toContain("<p>new</p>");
    // Each listed file with a patch section links to it.
    expect(html).toMatch(/<a href="#patch-\d+">\/src\/app.html<\/a>/);
  });

  it("shows a restore's own changes across the revision before it", async () => {
    const { id, cookie, put, post } = await tenant();
    await put("a.txt", "first\n");
    const snap = await post<{ id: string }>("snapshots");
    await put("a.txt", "second\n");
    const restored = await post<{ revision: number }>("restore", { snapshotId: snap.id });
    const html = await (
      await page(`/dashboard/workspaces/${id}/diff?from=${restored.revision - 1}&to=${restored.revision}`, cookie)
    ).text();
    expect(html).toContain('<tr data-path="/a.txt" data-status="modified"');
    expect(html).toContain('<span class="diff-del">-second</span>');
    expect(html).toContain('<span class="diff-add">+first</span>');
  });

  it("leaves a large patch to the API and says where it is", async () => {
    const { key, id, cookie } = await tenant();
    const snap = (await (await call("POST", `/v1/workspaces/${id}/snapshots`, { key, json: {} })).json()) as {
      id: string;
    };
    const ops = Array.from({ length: 101 }, (_, i) => ({ op: "write", path: `/many/f${i}.txt`, content: `${i}\n` }));
    expect((await call("POST", `/v1/workspaces/${id}/fs/batch`, { key, json: { ops } })).status).toBe(200);
    const html = await (await page(`/dashboard/workspaces/${id}/diff?from=${snap.id}`, cookie)).text();
    // The 101 files and their new directory.
    expect(html.match(/<tr data-path=/g)).toHaveLength(102);
    expect(html).toContain("data-patch-left-out");
    expect(html).toContain(`GET /v1/workspaces/${id}/diff?from=${snap.id}&amp;to=live&amp;format=patch`);
    expect(html).not.toContain('class="diff-add"');
  });

  it("answers 400 for a version the API would refuse, with the reason", async () => {
    const { id, cookie } = await tenant();
    const bad = await page(`/dashboard/workspaces/${id}/diff?from=HEAD`, cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("`from` must be a snapshot id, a revision number or `live`");
    expect((await page(`/dashboard/workspaces/${id}/diff`, cookie)).status).toBe(400);
    expect((await page(`/dashboard/workspaces/${id}/diff?from=snap_0000000000000000000000000`, cookie)).status).toBe(
      404,
    );
  });
});

describe("scopes and tenants", () => {
  it("shows notices in place of what the key may not read", async () => {
    const { key, id, post } = await tenant();
    await post("snapshots");
    const narrow = await createKey(key, { scopes: ["billing:read", "exec"] });
    const cookie = await signIn(narrow.key);
    const timeline = await page(`/dashboard/workspaces/${id}/timeline`, cookie);
    expect(timeline.status).toBe(200);
    const html = await timeline.text();
    expect(html).toContain('data-missing-scope="workspaces:read"');
    expect(html).not.toContain('data-event="snapshot"');
    expect((await page(`/dashboard/workspaces/${id}/diff?from=0`, cookie)).status).toBe(403);
  });

  it("gives another tenant's session 404 for the timeline and diffs of this workspace", async () => {
    const { id, put, post } = await tenant();
    await put("secret.txt", "the owner's\n");
    const snap = await post<{ id: string }>("snapshots", { name: "owner-snapshot" });
    const stranger = await tenant();
    for (const path of [
      `/dashboard/workspaces/${id}/timeline`,
      `/dashboard/workspaces/${id}/diff?from=${snap.id}`,
      `/dashboard/workspaces/${id}/diff?from=0&to=live`,
      // Their own workspace, this workspace's snapshot id.
      `/dashboard/workspaces/${stranger.id}/diff?from=${snap.id}`,
    ]) {
      const response = await page(path, stranger.cookie);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html, path).not.toContain("owner-snapshot");
      expect(html, path).not.toContain("secret.txt");
    }
  });
});
