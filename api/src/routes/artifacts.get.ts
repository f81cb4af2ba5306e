import { createRoute } from "@hono/zod-openapi";
import { artifactInfo } from "../../../tenants/artifacts/artifacts.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { Artifact, ArtifactParams, baseUrlOf, reachOf } from "./artifactsShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/artifacts/{artifactId}",
  operationId: "getArtifact",
  tags: ["Artifacts"],
  summary: "Read an artifact's record: digest, files, size",
  description:
    "A credential restricted to some workspaces or a path prefix sees an artifact only if it was published from inside its reach; others answer 404.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { params: ArtifactParams },
  responses: {
    200: { description: "The artifact", content: { "application/json": { schema: Artifact } } },
    ...errorResponses(404),
  },
});

export function registerArtifactsGet(app: App) {
  app.openapi(route, async (c) => {
    const { artifactId } = c.req.valid("param");
    const artifact = await c.var.services.artifacts.get(c.get("principal").tenantId, artifactId, reachOf(c));
    if (!artifact) throw new ApiError("not_found", `no artifact ${artifactId}`);
    return c.json({ ...artifactInfo(artifact, baseUrlOf(c)), fileCount: artifact.fileCount }, 200, {
      // An artifact never changes; only who may read it does, so it is cached privately.
      "cache-control": "private, max-age=3600",
      etag: `"${artifact.digest}"`,
    });
  });
}
