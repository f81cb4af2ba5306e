import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { reachOf } from "./artifactsShared.ts";

const route = createRoute({
  method: "delete",
  path: "/v1/shares/{shareId}",
  operationId: "revokeShare",
  tags: ["Share links"],
  summary: "Revoke a share link",
  description:
    "The link answers 404 from the next request on, everywhere (each use reads the link's row). Links of workspaces or paths outside the caller's reach answer 404.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: z.object({
      shareId: z
        .string()
        .max(64)
        .openapi({ param: { name: "shareId", in: "path" } }),
    }),
  },
  responses: {
    204: { description: "Revoked" },
    ...errorResponses(404),
  },
});

export function registerSharesDelete(app: App) {
  app.openapi(route, async (c) => {
    const { shareId } = c.req.valid("param");
    const revoked = await c.var.services.shares.revoke(c.get("principal").tenantId, shareId, reachOf(c));
    if (!revoked) throw new ApiError("not_found", `no live share link ${shareId}`);
    return c.body(null, 204);
  });
}
