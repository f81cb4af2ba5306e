import { createRoute, z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import { pathPatterns } from "../../../tenants/workspace/pathPatterns.ts";
import type { App } from "../context.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { requireWholeWorkspace } from "../workspaceAccess.ts";
import { workspaceObject, workspacePath } from "./filePath.ts";
import { FileInfo } from "./files.put.ts";
import { pastVersion, VersionRef } from "./versions.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/fs/list",
  operationId: "listPath",
  tags: ["Filesystem"],
  summary: "List a directory",
  description:
    "Entries in path order; `recursive=true` lists the whole subtree. Page with `limit` and `cursor`. `at` lists a past version: a snapshot id or a revision the history window keeps, as `GET …/files/{path}?at=` reads one (a token confined to a path prefix cannot, 403; `live` is the present).",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    query: z.object({
      // Checked by workspacePath() below, which names the rule broken (400 `invalid_path`).
      path: z.string().default("/").openapi({ pattern: pathPatterns.any, maxLength: workspaceLimits.pathLengthMax }),
      recursive: z.enum(["true", "false"]).default("false"),
      limit: z.coerce.number().int().min(1).max(workspaceLimits.listPageMax).default(workspaceLimits.listPageDefault),
      cursor: z.string().max(workspaceLimits.pathLengthMax).optional(),
      at: VersionRef.optional(),
    }),
  },
  responses: {
    200: {
      description: "A page of entries",
      content: {
        "application/json": {
          schema: z.object({ entries: z.array(FileInfo), nextCursor: z.string().nullable() }).openapi("DirectoryPage"),
        },
      },
    },
    ...errorResponses(404, 409),
  },
});

export function registerFsList(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    const query = c.req.valid("query");
    const { object, prefix } = await workspaceObject(c, workspaceId);
    const path = workspacePath(query.path, { allowRoot: true });
    const options = { recursive: query.recursive === "true", limit: query.limit, cursor: query.cursor };
    const at = pastVersion(query.at);
    if (at !== undefined) requireWholeWorkspace(c, "a past version");
    const result = orThrow(
      at === undefined ? await object.list(path, options, prefix) : await object.listAt(at, path, options),
    );
    return c.json({ entries: result.entries, nextCursor: result.nextCursor }, 200);
  });
}
