import { createRoute, z } from "@hono/zod-openapi";
import { execLimits } from "../../../executors/limits.ts";
import { viewEvent } from "../../../tenants/workspace/execs/sse.ts";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { ExecParams, execObject, OutputEventView, SSE_HEADERS, wantsEventStream } from "./execShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/execs/{execId}/output",
  operationId: "getExecOutput",
  tags: ["Execution"],
  summary: "A run's output after a sequence number",
  description:
    "JSON pages of events after `after`; or, with `Accept: text/event-stream`, a live stream that resumes after `Last-Event-ID` (or `after`) and ends with the `exit` event. Output is stored as it is produced, so nothing is lost by disconnecting.",
  security: [{ bearer: [] }],
  middleware: [requireScope("exec"), admits("request")] as const,
  request: {
    params: ExecParams,
    query: z.object({
      after: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(execLimits.outputPageMax).default(execLimits.outputPageMax),
    }),
    headers: z.object({ "last-event-id": z.string().regex(/^\d+$/).optional() }),
  },
  responses: {
    200: {
      description: "Events after `after`",
      content: {
        "application/json": {
          schema: z
            .object({
              events: z.array(OutputEventView),
              nextSeq: z.number().int(),
              done: z.boolean().openapi({ description: "True once the exit event is in this or an earlier page." }),
            })
            .openapi("OutputPage"),
        },
        "text/event-stream": { schema: z.string() },
      },
    },
    ...errorResponses(404),
  },
});

export function registerExecsOutput(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, execId } = c.req.valid("param");
    const { after, limit } = c.req.valid("query");
    const lastEventId = c.req.valid("header")["last-event-id"];
    const from = Math.max(after, lastEventId === undefined ? 0 : Number(lastEventId));
    const { object, record } = await execObject(c, workspaceId, execId);
    if (wantsEventStream(c)) return new Response(await object.watchExec(execId, from), { headers: SSE_HEADERS });
    const events = (await object.execOutput(execId, from, limit)).map(viewEvent);
    const last = events.at(-1);
    // The record was read before the events, so if it had ended then, its exit event is stored:
    // done when this page reaches it, or the caller is already past it.
    const pastExit = record.status !== "running" && from >= record.nextSeq - 1;
    return c.json(
      {
        events,
        nextSeq: last ? last.seq + 1 : from + 1,
        done: last?.stream === "exit" || (last === undefined && pastExit),
      },
      200,
    );
  });
}
