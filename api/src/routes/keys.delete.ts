import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../app.ts";
import { ApiError } from "../errors.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { services } from "../services.ts";

const route = createRoute({
  method: "delete",
  path: "/v1/keys/{keyId}",
  operationId: "revokeKey",
  tags: ["Keys"],
  summary: "Revoke an API key",
  description: "The key stops working at once in this region and everywhere within 10 seconds.",
  security: [{ bearer: [] }],
  middleware: [requireScope("keys:manage")] as const,
  request: { params: z.object({ keyId: z.string().openapi({ param: { name: "keyId", in: "path" } }) }) },
  responses: {
    204: { description: "Revoked" },
    ...errorResponses(404),
  },
});

export function registerKeysDelete(app: App) {
  app.openapi(route, async (c) => {
    const { keyId } = c.req.valid("param");
    const revoked = await services(c.env).apiKeys.revoke(c.get("principal").tenantId, keyId);
    if (!revoked) throw new ApiError("not_found", `no key ${keyId}`);
    return c.body(null, 204);
  });
}
