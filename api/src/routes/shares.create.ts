import { createRoute, z } from "@hono/zod-openapi";
import { shareLimits } from "../../../tenants/shares/limits.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams, WorkspacePathField } from "../schemas.ts";
import { baseUrlOf, NewShare } from "./artifactsShared.ts";
import { workspaceObject } from "./filePath.ts";

const { ttlSecondsMin, ttlSecondsMax, ttlSecondsDefault } = shareLimits;

const route = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/shares",
  operationId: "createShare",
  tags: ["Share links"],
  summary: "Make a public link to one file",
  description: `Answers a URL, \`/s/<token>\`, that serves the file's current bytes to anyone holding it, without a credential, until it expires (\`ttlSeconds\`, ${ttlSecondsMin}…${ttlSecondsMax}, default ${ttlSecondsDefault}; clamped to the caller's own expiry), is revoked (\`DELETE /v1/shares/{shareId}\`), or the API key behind the caller is revoked. A token confined to a path prefix may share only inside it (403), and its links read through that prefix. The token is shown only in this response.`,
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            path: WorkspacePathField,
            ttlSeconds: z.number().int().min(ttlSecondsMin).max(ttlSecondsMax).default(ttlSecondsDefault),
          }),
        },
      },
    },
  },
  responses: {
    201: { description: "The link", content: { "application/json": { schema: NewShare } } },
    ...errorResponses(404, 409),
  },
});

export function registerSharesCreate(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    const { path, ttlSeconds } = c.req.valid("json");
    if (path === "/") throw new ApiError("conflict", "EISDIR: the workspace root is a directory; share a file");
    const { keyId, expiresAt } = c.get("principal");
    const { object, prefix } = await workspaceObject(c, workspaceId);
    const { share, token } = orThrow(await object.shareFile(path, { ttlSeconds, keyId, notAfter: expiresAt }, prefix));
    return c.json({ ...share, url: `${baseUrlOf(c)}/s/${token}`, token }, 201);
  });
}
