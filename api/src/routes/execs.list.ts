import { createRoute, type z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, PageQuery, page, WorkspaceParams } from "../schemas.ts";
import { ExecRecordView, withResult } from "./execShared.ts";
import { workspaceObject } from "./filePath.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/execs",
  operationId: "listExecs",
  tags: ["Execution"],
  summary: "Recent runs, newest first",
  description:
    "Records are kept for 7 days, at most the newest 1,000 per workspace. A token confined to a path prefix sees only runs confined at or under it.",
  security: [{ bearer: [] }],
  middleware: [requireScope("exec"), admits("request")] as const,
  request: { params: WorkspaceParams, query: PageQuery },
  responses: {
    200: {
      description: "A page of runs",
      content: { "application/json": { schema: page(ExecRecordView, "ExecRecordPage") } },
    },
    ...errorResponses(404),
  },
});

export function registerExecsList(app: App) {
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const { object, prefix } = await workspaceObject(c, c.req.valid("param").workspaceId);
    const result = await object.listExecs(limit, cursor, prefix);
    const data = result.data.map(withResult) as z.infer<typeof ExecRecordView>[];
    return c.json({ data, nextCursor: result.nextCursor }, 200);
  });
}
