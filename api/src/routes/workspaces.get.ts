import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Workspace, WorkspaceParams } from "../schemas.ts";
import { loadWorkspace } from "../workspaceAccess.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}",
  operationId: "getWorkspace",
  tags: ["Workspaces"],
  summary: "Read a workspace",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { params: WorkspaceParams },
  responses: {
    200: { description: "The workspace", content: { "application/json": { schema: Workspace } } },
    ...errorResponses(404),
  },
});

export function registerWorkspacesGet(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    const workspace = await loadWorkspace(c, workspaceId);
    // The index mirrors the counters for lists; one workspace is read exactly from its object.
    const { sizeBytes, fileCount, uniqueBytes } = await c.var.services.workspaces
      .object(c.get("principal").tenantId, workspaceId)
      .counters();
    return c.json({ ...workspace, sizeBytes, fileCount, storageBytes: uniqueBytes }, 200);
  });
}
