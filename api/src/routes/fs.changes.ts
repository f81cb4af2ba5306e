import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Timestamp, WorkspaceParams } from "../schemas.ts";
import { requireWholeWorkspace } from "../workspaceAccess.ts";
import { workspaceObject } from "./filePath.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/fs/changes",
  operationId: "listChanges",
  tags: ["Filesystem"],
  summary: "The change log since a revision",
  description:
    "Every mutation has a revision and the paths it touched. If `since` is older than `oldestRev - 1`, entries were compacted away: re-list instead of replaying. The log names paths anywhere in the workspace, so a token confined to a path prefix cannot read it (403).",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    query: z.object({
      since: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(1000).default(100),
    }),
  },
  responses: {
    200: {
      description: "Changes after `since`, oldest first",
      content: {
        "application/json": {
          schema: z
            .object({
              changes: z.array(
                z.object({
                  rev: z.number().int(),
                  at: Timestamp,
                  op: z.string(),
                  paths: z.array(z.string()),
                  actor: z.string().nullable().openapi({
                    description: "Who made it: `key:<id>`, `exec:<id>` (a run), `container`, or null when unknown.",
                  }),
                  restoredTo: z.string().optional().openapi({
                    description: "A restore's: the version it went back to (a snapshot id, or a revision).",
                  }),
                }),
              ),
              revision: z.number().int().openapi({ description: "The workspace's current revision." }),
              oldestRev: z.number().int().openapi({ description: "The oldest revision still in the log." }),
            })
            .openapi("ChangePage"),
        },
      },
    },
    ...errorResponses(404),
  },
});

export function registerFsChanges(app: App) {
  app.openapi(route, async (c) => {
    const { since, limit } = c.req.valid("query");
    const { object } = await workspaceObject(c, c.req.valid("param").workspaceId);
    requireWholeWorkspace(c, "the change log");
    const page = await object.changesSince(since, limit);
    return c.json({ changes: page.changes, revision: page.revision, oldestRev: page.oldestRev }, 200);
  });
}
