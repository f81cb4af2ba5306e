import { createRoute } from "@hono/zod-openapi";
import type { App } from "../app.ts";
import { orThrow } from "../fsErrors.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { FilePath, workspaceObject, workspacePath } from "./filePath.ts";

const route = createRoute({
  method: "head",
  path: "/v1/workspaces/{workspaceId}/files/{path{.+}}",
  operationId: "headFile",
  tags: ["Files"],
  summary: "Stat a file as headers",
  description:
    "`Content-Length`, `ETag`, `Last-Modified`, and `X-File-Type` / `X-File-Mode` for a file or directory, without its bytes.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read")] as const,
  request: { params: WorkspaceParams.extend({ path: FilePath }) },
  responses: {
    200: { description: "The entry exists; its stat is in the headers" },
    ...errorResponses(404),
  },
});

export function registerFilesHead(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, path: rawPath } = c.req.valid("param");
    const { object } = await workspaceObject(c, workspaceId);
    const { stat } = orThrow(await object.stat(workspacePath(rawPath)));
    const headers: Record<string, string> = {
      "content-length": String(stat.size),
      "last-modified": new Date(stat.mtime).toUTCString(),
      "x-file-type": stat.type,
      "x-file-mode": stat.mode.toString(8).padStart(4, "0"),
    };
    if (stat.etag) headers.etag = stat.etag;
    return new Response(null, { status: 200, headers });
  });
}
