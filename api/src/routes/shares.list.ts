import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, PageQuery, page, WorkspaceParams } from "../schemas.ts";
import { requireWorkspace } from "../workspaceAccess.ts";
import { reachOf, Share } from "./artifactsShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/shares",
  operationId: "listShares",
  tags: ["Share links"],
  summary: "List a workspace's live share links, newest first",
  description:
    "Links not yet expired or revoked, without their tokens (never stored). A token confined to a path prefix lists only links inside it.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { params: WorkspaceParams, query: PageQuery },
  responses: {
    200: { description: "A page of links", content: { "application/json": { schema: page(Share, "SharePage") } } },
    ...errorResponses(404),
  },
});

export function registerSharesList(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    const { limit, cursor } = c.req.valid("query");
    await requireWorkspace(c, workspaceId);
    const { tenantId } = c.get("principal");
    return c.json(await c.var.services.shares.list(tenantId, workspaceId, reachOf(c), limit, cursor), 200);
  });
}
