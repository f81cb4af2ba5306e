import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { FILE_ROUTE_PATH, FilePath, workspaceObject, workspacePath } from "./filePath.ts";

const route = createRoute({
  method: "delete",
  path: FILE_ROUTE_PATH,
  operationId: "deleteFile",
  tags: ["Files"],
  summary: "Delete a file, link or directory",
  description:
    "A non-empty directory needs `?recursive=true` (409 otherwise). `If-Match: <etag>` deletes only that version of a file (a comma-separated list: any of them; `*`: whatever exists), 412 otherwise.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("request")] as const,
  request: {
    params: WorkspaceParams.extend({ path: FilePath }),
    query: z.object({ recursive: z.enum(["true", "false"]).optional() }),
    headers: z.object({ "if-match": z.string().optional() }),
  },
  responses: {
    200: {
      description: "Deleted",
      content: { "application/json": { schema: z.object({ removed: z.number().int() }).openapi("Removed") } },
    },
    ...errorResponses(404, 409, 412),
  },
});

export function registerFilesDelete(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, path: rawPath } = c.req.valid("param");
    const ifMatch = c.req.valid("header")["if-match"];
    const workspace = await workspaceObject(c, workspaceId);
    const result = orThrow(
      await workspace.object.remove(
        workspacePath(rawPath),
        {
          recursive: c.req.valid("query").recursive === "true",
          ...(ifMatch ? { ifMatch } : {}),
        },
        workspace.caller,
      ),
    );
    await workspace.recordStats(result);
    return c.json({ removed: result.removed }, 200);
  });
}
