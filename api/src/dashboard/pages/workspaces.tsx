/**
 * The Workspaces section: the tenant's workspaces, a file browser with each workspace's
 * recent runs, file previews and downloads, run pages, and the time machine's timeline and
 * diffs. Every page reads through the
 * same workspace object calls as the `/v1` routes, after the same access check, so another
 * tenant's workspace is a 404 here exactly as it is on the API.
 */
import type { Hono } from "hono";
import type { DashboardEnv } from "../context.ts";
import { workspaceBrowserPage } from "./workspaces/browser.tsx";
import { diffPage } from "./workspaces/diff.tsx";
import { filePreviewPage, rawFile } from "./workspaces/file.tsx";
import { workspacesListPage } from "./workspaces/list.tsx";
import { runPage } from "./workspaces/run.tsx";
import { guarded } from "./workspaces/shared.tsx";
import { timelinePage } from "./workspaces/timeline.tsx";

export function registerWorkspacesPages(dashboard: Hono<DashboardEnv>) {
  dashboard.get("/workspaces", guarded(workspacesListPage));
  dashboard.get("/workspaces/:id", guarded(workspaceBrowserPage));
  dashboard.get("/workspaces/:id/file", guarded(filePreviewPage));
  dashboard.get("/workspaces/:id/raw", guarded(rawFile));
  dashboard.get("/workspaces/:id/runs/:execId", guarded(runPage));
  dashboard.get("/workspaces/:id/timeline", guarded(timelinePage));
  dashboard.get("/workspaces/:id/diff", guarded(diffPage));
}
