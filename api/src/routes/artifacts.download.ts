import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { ArtifactParams, reachOf } from "./artifactsShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/artifacts/{artifactId}/download",
  operationId: "downloadArtifact",
  tags: ["Artifacts"],
  summary: "Download an artifact as a tar.gz",
  description:
    "Streams a gzip-compressed POSIX tar of the artifact's files (regular files, mode 0644, paths relative to what was published; long names in pax records). Extract with `tar -xzf`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { params: ArtifactParams },
  responses: {
    200: {
      description: "The archive",
      content: { "application/gzip": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses(404),
  },
});

export function registerArtifactsDownload(app: App) {
  app.openapi(route, async (c) => {
    const { artifactId } = c.req.valid("param");
    const { tenantId } = c.get("principal");
    const { artifacts } = c.var.services;
    const artifact = await artifacts.get(tenantId, artifactId, reachOf(c));
    if (!artifact) throw new ApiError("not_found", `no artifact ${artifactId}`);
    return new Response(artifacts.gzipTar(tenantId, artifact), {
      headers: {
        "content-type": "application/gzip",
        "content-disposition": `attachment; filename="${artifact.id}.tar.gz"`,
        // The files never change; the gzip bytes could with the runtime's compressor, hence weak.
        etag: `W/"${artifact.digest}"`,
        "cache-control": "private, max-age=3600",
      },
    });
  });
}
