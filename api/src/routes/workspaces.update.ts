import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Metadata, Name, Workspace, WorkspaceParams } from "../schemas.ts";
import { loadWorkspace, requireWholeWorkspace } from "../workspaceAccess.ts";

const route = createRoute({
  method: "patch",
  path: "/v1/workspaces/{workspaceId}",
  operationId: "updateWorkspace",
  tags: ["Workspaces"],
  summary: "Rename or relabel a workspace",
  description:
    "`metadata` replaces the labels as a whole; `name: null` clears the name. A token confined to a path prefix cannot change them (403).",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    body: {
      required: true,
      content: {
        "application/json": { schema: z.object({ name: Name.nullable().optional(), metadata: Metadata.optional() }) },
      },
    },
  },
  responses: {
    200: { description: "The updated workspace", content: { "application/json": { schema: Workspace } } },
    ...errorResponses(404),
  },
});

export function registerWorkspacesUpdate(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    await loadWorkspace(c, workspaceId);
    requireWholeWorkspace(c, "changing the workspace's name or labels");
    const updated = await c.var.services.workspaces.update(
      c.get("principal").tenantId,
      workspaceId,
      c.req.valid("json"),
    );
    if (!updated) throw new ApiError("not_found", `no workspace ${workspaceId}`);
    return c.json(updated, 200);
  });
}
