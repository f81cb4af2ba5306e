import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { loadWorkspace, requireWholeWorkspace } from "../workspaceAccess.ts";

const route = createRoute({
  method: "delete",
  path: "/v1/workspaces/{workspaceId}",
  operationId: "deleteWorkspace",
  tags: ["Workspaces"],
  summary: "Delete a workspace with all its files and records",
  description: "A token confined to a path prefix cannot delete the workspace it is confined in (403).",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("request")] as const,
  request: { params: WorkspaceParams },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses(404),
  },
});

export function registerWorkspacesDelete(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    await loadWorkspace(c, workspaceId);
    requireWholeWorkspace(c, "deleting the workspace");
    const { tenantId } = c.get("principal");
    const { workspaces, usage } = c.var.services;
    const deleted = await workspaces.delete(tenantId, workspaceId);
    if (!deleted) throw new ApiError("not_found", `no workspace ${workspaceId}`);
    // Its bytes stop accruing now; no later report can be newer than this one.
    await usage.storageChanged(tenantId, workspaceId, 0, Number.MAX_SAFE_INTEGER);
    return c.body(null, 204);
  });
}
