import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../app.ts";
import { ApiError } from "../errors.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { services } from "../services.ts";
import { loadWorkspace } from "../workspaceAccess.ts";
import { FilePath, workspacePath } from "./filePath.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/files/{path{.+}}",
  operationId: "getFile",
  tags: ["Files"],
  summary: "Read a file",
  description: "Answers the raw bytes with the file's `ETag`, streamed from the workspace.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read")] as const,
  request: { params: WorkspaceParams.extend({ path: FilePath }) },
  responses: {
    200: {
      description: "The file's bytes",
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses(404),
  },
});

export function registerFilesGet(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, path: rawPath } = c.req.valid("param");
    const path = workspacePath(rawPath);
    await loadWorkspace(c, workspaceId);
    const result = await services(c.env).workspaces.object(c.get("principal").tenantId, workspaceId).getFile(path);
    if (!result.ok) throw new ApiError("not_found", `no file ${path}`);
    // A fixed-length stream lets workerd send Content-Length instead of chunked encoding.
    return new Response(result.body.pipeThrough(new FixedLengthStream(result.file.size)), {
      headers: {
        "content-type": "application/octet-stream",
        etag: result.file.etag,
        "last-modified": new Date(result.file.mtime).toUTCString(),
      },
    });
  });
}
