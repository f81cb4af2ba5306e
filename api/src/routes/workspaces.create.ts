import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { replayOrClaim } from "../middleware/idempotency.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, IdempotencyHeaders, Metadata, Name, Workspace } from "../schemas.ts";
import { requireNewWorkspacesAllowed } from "../workspaceAccess.ts";

const route = createRoute({
  method: "post",
  path: "/v1/workspaces",
  operationId: "createWorkspace",
  tags: ["Workspaces"],
  summary: "Create a workspace",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("request")] as const,
  request: {
    headers: IdempotencyHeaders,
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ name: Name.optional(), metadata: Metadata.optional() }) } },
    },
  },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: Workspace } } },
    ...errorResponses(409),
  },
});

export function registerWorkspacesCreate(app: App) {
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    requireNewWorkspacesAllowed(c);
    const body = c.req.valid("json");
    const replay = await replayOrClaim(c, "createWorkspace", body);
    // A replay is this route's own earlier answer, stored as it was sent.
    if (replay) return replay as never;
    const workspace = await c.var.services.workspaces.create(principal.tenantId, body);
    return c.json(workspace, 201);
  });
}
