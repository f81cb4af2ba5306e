import { createRoute, type z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { ExecParams, ExecRecordView, execObject } from "./execShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/execs/{execId}",
  operationId: "getExec",
  tags: ["Execution"],
  summary: "A run's record: status, exit code, timings",
  security: [{ bearer: [] }],
  middleware: [requireScope("exec"), admits("request")] as const,
  request: { params: ExecParams },
  responses: {
    200: { description: "The record", content: { "application/json": { schema: ExecRecordView } } },
    ...errorResponses(404),
  },
});

export function registerExecsGet(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, execId } = c.req.valid("param");
    const { record } = await execObject(c, workspaceId, execId);
    return c.json(record as z.infer<typeof ExecRecordView>, 200);
  });
}
