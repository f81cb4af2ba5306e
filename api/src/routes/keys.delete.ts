import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireKeyManager } from "../middleware/requireKeyManager.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { revokeKeyAs } from "./keysShared.ts";

const route = createRoute({
  method: "delete",
  path: "/v1/keys/{keyId}",
  operationId: "revokeKey",
  tags: ["Keys"],
  summary: "Revoke an API key",
  description:
    "The key stops working at once in this region and everywhere within 10 seconds. Needs an account-wide API key, and a key may revoke only keys it could have created: none with a scope it lacks (403).",
  security: [{ bearer: [] }],
  middleware: [requireScope("keys:manage"), requireKeyManager(), admits("request")] as const,
  request: { params: z.object({ keyId: z.string().openapi({ param: { name: "keyId", in: "path" } }) }) },
  responses: {
    204: { description: "Revoked" },
    ...errorResponses(404),
  },
});

export function registerKeysDelete(app: App) {
  app.openapi(route, async (c) => {
    const { keyId } = c.req.valid("param");
    await revokeKeyAs(c.var.services.apiKeys, c.get("principal"), keyId);
    return c.body(null, 204);
  });
}
