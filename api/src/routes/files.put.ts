import { createRoute, z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { App } from "../app.ts";
import { ApiError } from "../errors.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Timestamp, WorkspaceParams } from "../schemas.ts";
import { services } from "../services.ts";
import { loadWorkspace } from "../workspaceAccess.ts";
import { FilePath, workspacePath } from "./filePath.ts";

export const FileInfo = z
  .object({
    path: z.string().openapi({ example: "/src/main.ts" }),
    size: z.number().int(),
    etag: z.string(),
    mtime: Timestamp,
  })
  .openapi("FileInfo");

const route = createRoute({
  method: "put",
  path: "/v1/workspaces/{workspaceId}/files/{path{.+}}",
  operationId: "putFile",
  tags: ["Files"],
  summary: "Write a file",
  description: "The raw body is the file's bytes. It streams into the workspace; parents need not exist.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write")] as const,
  request: {
    params: WorkspaceParams.extend({ path: FilePath }),
    body: {
      required: true,
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
  responses: {
    200: { description: "Written", content: { "application/json": { schema: FileInfo } } },
    ...errorResponses(404, 413),
  },
});

export function registerFilesPut(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, path: rawPath } = c.req.valid("param");
    const path = workspacePath(rawPath);
    const declared = Number(c.req.header("content-length") ?? "0");
    if (declared > workspaceLimits.fileBytesMax) {
      throw new ApiError("payload_too_large", `a file may be at most ${workspaceLimits.fileBytesMax} bytes`);
    }
    await loadWorkspace(c, workspaceId);
    const { tenantId } = c.get("principal");
    const workspaces = services(c.env).workspaces;
    const body = c.req.raw.body ?? new Blob([]).stream();
    const result = await workspaces.object(tenantId, workspaceId).putFile(path, body);
    if (!result.ok)
      throw new ApiError("payload_too_large", `a file may be at most ${workspaceLimits.fileBytesMax} bytes`);
    await workspaces.recordStats(tenantId, workspaceId, result.stats);
    return c.json(result.file, 200);
  });
}
