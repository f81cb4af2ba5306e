/**
 * The Workspaces section: the tenant's workspaces, a file browser with each workspace's
 * recent runs, file previews and downloads, and run pages. Every page reads through the
 * same workspace object calls as the `/v1` routes, after the same access check, so another
 * tenant's workspace is a 404 here exactly as it is on the API.
 */
import type { Hono } from "hono";
import type { DashboardEnv } from "../context.ts";
import { workspaceBrowserPage } from "./workspaces/browser.tsx";
import { filePreviewPage, rawFile } from "./workspaces/file.tsx";
import { workspacesListPage } from "./workspaces/list.tsx";
import { runPage } from "./workspaces/run.tsx";
import { guarded } from "./workspaces/shared.tsx";

export function registerWorkspacesPages(dashboard: Hono<DashboardEnv>) {
  dashboard.get("/workspaces", guarded(workspacesListPage));
  dashboard.get("/workspaces/:id", guarded(workspaceBrowserPage));
  dashboard.get("/workspaces/:id/file", guarded(filePreviewPage));
  dashboard.get("/workspaces/:id/raw", guarded(rawFile));
  dashboard.get("/workspaces/:id/runs/:execId", guarded(runPage));
}
