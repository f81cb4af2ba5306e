import { createRoute, z } from "@hono/zod-openapi";
import { newId } from "../../../tenants/ids.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { refusal } from "../middleware/admit.ts";
import { admits } from "../middleware/admits.ts";
import { replayOrClaim } from "../middleware/idempotency.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, IdempotencyHeaders, WorkspaceParams } from "../schemas.ts";
import { egressPolicy } from "./execEgress.ts";
import { ExecBody, runUser, sourceOf } from "./execRequest.ts";
import { ExecRecordView, ExecStatusView, execCwd, SSE_HEADERS, wantsEventStream, withResult } from "./execShared.ts";
import { execStartedFrame, withFirstEvent } from "./execStartedEvent.ts";
import { workspaceObject } from "./filePath.ts";

const ExecResult = z
  .object({
    id: z.string(),
    status: ExecStatusView,
    exitCode: z.number().int().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    result: z.unknown().optional(),
    durationMs: z.number().int().nullable(),
    truncated: z.boolean(),
    usage: z.object({ meter: z.string(), quantity: z.number().int() }).nullable(),
    error: ExecRecordView.shape.error,
    reason: ExecRecordView.shape.reason,
    mount: ExecRecordView.shape.mount,
    conflicts: ExecRecordView.shape.conflicts,
    snapshotId: z
      .string()
      .optional()
      .openapi({ description: 'The snapshot taken before the run (`snapshot: "before"`).' }),
  })
  .openapi("ExecResult");

const route = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/exec",
  operationId: "exec",
  tags: ["Execution"],
  summary: "Run a command or module in the workspace",
  description:
    "Answers when the run ends with its output, or at once with 202 for `background: true`. With `Accept: text/event-stream` it streams an `exec` event first (`{ id, workspaceId, snapshotId? }`, no SSE id), then `stdout`, `stderr` and `exit` events whose ids are sequence numbers; the run's id is also in the `X-Exec-Id` header, and with `snapshot: \"before\"` the snapshot's id in `X-Snapshot-Id` (and `snapshotId` in the JSON answers). A client that disconnects resumes from `GET …/execs/{execId}/output` with `Last-Event-ID`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("exec"), admits("exec")] as const,
  request: {
    params: WorkspaceParams,
    headers: IdempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: ExecBody } } },
  },
  responses: {
    200: {
      description: "The run ended",
      content: { "application/json": { schema: ExecResult }, "text/event-stream": { schema: z.string() } },
      headers: z.object({
        "X-Exec-Id": z.string().openapi({ description: "The run's id, for resuming its output (event streams only)" }),
        "X-Snapshot-Id": z.string().optional().openapi({
          description: 'The snapshot taken just before the run, with `snapshot: "before"` (event streams only)',
        }),
      }),
    },
    202: { description: "Started in the background", content: { "application/json": { schema: ExecResult } } },
    ...errorResponses(404, 503),
  },
});

export function registerExecCreate(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    const body = c.req.valid("json");
    const principal = c.get("principal");
    const cwd = execCwd(body.cwd, principal.pathPrefix);
    const egress = egressPolicy(body.egress);
    const { object, mirrorStats } = await workspaceObject(c, workspaceId, { forRun: true });
    const stream = wantsEventStream(c);
    // Every check above runs before a stored answer is replayed.
    const replay = await replayOrClaim(c, "exec", body);
    if (replay) return replay;
    // The tenant's object admits the request with the run's slot (middleware/admit.ts), has
    // the workspace's object run it, and meters it with the workspace's size after it: one
    // call from here, whatever the run does (tenants/account/runs.ts).
    const deferred = c.get("deferredAdmission");
    const started = await c.var.services.usage.ledger(principal.tenantId).exec(
      workspaceId,
      {
        execId: newId("ex"),
        executor: body.executor,
        ...sourceOf(body),
        ...runUser(body),
        cwd,
        env: body.env,
        stdin: new TextEncoder().encode(body.stdin ?? ""),
        timeoutMs: body.timeoutMs,
        outputBytesMax: body.outputBytesMax,
        egress,
        keyId: principal.keyId,
        background: body.background || stream,
        pathPrefix: principal.pathPrefix,
        baseUrl: new URL(c.req.url).origin,
        credentialExpiresAt: principal.expiresAt,
        requestId: deferred?.requestId,
      },
      body.snapshot ? { snapshot: body.snapshot } : {},
    );
    if (deferred && started.rate) deferred.rate = started.rate;
    if ("ok" in started) {
      const { code, message: detail, retryAfterSeconds } = started;
      if (started.rate) throw refusal({ code, detail, retryAfterSeconds }, started.rate);
      const retry = retryAfterSeconds === undefined ? {} : { headers: { "retry-after": String(retryAfterSeconds) } };
      throw new ApiError(code, detail, retry);
    }
    const { stats, previous, rate: _, outputElided, ...answered } = started;
    const execId = answered.id;
    // Output too large to travel through the tenant's object is read from the workspace's (ExecRunner.ts).
    const result = outputElided ? { ...answered, ...(await object.execResult(execId)) } : answered;
    if (stream) {
      const { snapshotId } = result;
      const first = execStartedFrame(execId, workspaceId, snapshotId);
      const events = withFirstEvent(first, await object.watchExec(execId, 0));
      const headers: Record<string, string> = { ...SSE_HEADERS, "x-exec-id": execId };
      if (snapshotId) headers["x-snapshot-id"] = snapshotId;
      return new Response(events, { headers });
    }
    // A run may have written files: mirror the counters the index shows in lists (the ledger
    // already has the size, from the run's own metering).
    if (!body.background) await mirrorStats({ stats, previous });
    return c.json(withResult(result), body.background ? 202 : 200);
  });
}
