import { createRoute, z } from "@hono/zod-openapi";
import { artifactInfo } from "../../../tenants/artifacts/artifacts.ts";
import { artifactLimits } from "../../../tenants/artifacts/limits.ts";
import type { App } from "../context.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams, WorkspacePathField } from "../schemas.ts";
import { Artifact, baseUrlOf } from "./artifactsShared.ts";
import { workspaceObject } from "./filePath.ts";

const route = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/artifacts",
  operationId: "publishArtifact",
  tags: ["Artifacts"],
  summary: "Publish a file or directory as an immutable artifact",
  description: `Copies the files at \`path\` (a file, or every file under a directory; symlinks to files are followed) into an immutable, content-addressed artifact. The digest covers the sorted relative paths, sizes and contents, and the id is derived from it: publishing the same content again answers 200 with the same artifact. At most ${artifactLimits.filesMax} files and ${artifactLimits.bytesMax} bytes (413). Needs \`workspaces:read\`: it reads the workspace and changes nothing in it. A token confined to a path prefix may publish only inside it (403).`,
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ path: WorkspacePathField }) } },
    },
  },
  responses: {
    200: {
      description: "Already published: the existing artifact",
      content: { "application/json": { schema: Artifact } },
    },
    201: { description: "Published", content: { "application/json": { schema: Artifact } } },
    ...errorResponses(404, 413),
  },
});

export function registerArtifactsCreate(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    const { path } = c.req.valid("json");
    const { object, prefix } = await workspaceObject(c, workspaceId);
    const { artifact, created } = orThrow(await object.publishArtifact(path, prefix));
    const info = artifactInfo(artifact, baseUrlOf(c));
    const body = { ...info, fileCount: artifact.fileCount };
    if (!created) return c.json(body, 200);
    return c.json(body, 201, { location: info.url });
  });
}
