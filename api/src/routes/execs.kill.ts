import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { ExecParams, ExecRecordView, execObject, withResult } from "./execShared.ts";

const route = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/execs/{execId}/kill",
  operationId: "killExec",
  tags: ["Execution"],
  summary: "Stop a run",
  description: "The run ends as `cancelled` (exit code 137). Killing a run that has ended changes nothing.",
  security: [{ bearer: [] }],
  middleware: [requireScope("exec"), admits("request")] as const,
  request: {
    params: ExecParams,
    body: {
      required: false,
      content: {
        "application/json": { schema: z.object({ signal: z.enum(["SIGTERM", "SIGKILL", "SIGINT"]).optional() }) },
      },
    },
  },
  responses: {
    200: { description: "The record after the kill", content: { "application/json": { schema: ExecRecordView } } },
    ...errorResponses(404),
  },
});

export function registerExecsKill(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, execId } = c.req.valid("param");
    const { object } = await execObject(c, workspaceId, execId);
    const record = await object.killExec(execId);
    if (!record) throw new ApiError("not_found", `no exec ${execId}`);
    return c.json(withResult(record) as z.infer<typeof ExecRecordView>, 200);
  });
}
