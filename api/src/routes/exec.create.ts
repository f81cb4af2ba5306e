import { createRoute, z } from "@hono/zod-openapi";
import type { JsonValue } from "../../../executors/contract.ts";
import { execLimits } from "../../../executors/limits.ts";
import { newId } from "../../../tenants/ids.ts";
import type { App } from "../app.ts";
import { ApiError } from "../errors.ts";
import { replayOrClaim } from "../middleware/idempotency.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, IdempotencyHeaders, WorkspaceParams } from "../schemas.ts";
import { services } from "../services.ts";
import { EgressField, egressPolicy } from "./execEgress.ts";
import { execCwd, SSE_HEADERS, wantsEventStream, withResult } from "./execShared.ts";
import { workspaceObject } from "./filePath.ts";

const ExecBody = z
  .object({
    executor: z.enum(["shell", "javascript", "container"]),
    command: z
      .string()
      .min(1)
      .max(execLimits.sourceBytesMax)
      .optional()
      .openapi({ description: "shell, container: the script." }),
    code: z
      .string()
      .min(1)
      .max(execLimits.sourceBytesMax)
      .optional()
      .openapi({ description: "javascript: the ES module." }),
    input: z
      .unknown()
      .optional()
      .openapi({ description: "javascript: the value passed to the module's default export." }),
    cwd: z.string().max(4096).optional().openapi({
      description:
        "Under /workspace (the workspace root) or /tmp. Default /workspace, or for a token confined to a path prefix, that directory (`/workspace/src`).",
    }),
    env: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
          .max(256),
        z.string().max(execLimits.envValueBytesMax),
      )
      .refine((e) => Object.keys(e).length <= execLimits.envEntriesMax, `at most ${execLimits.envEntriesMax} variables`)
      .default({}),
    stdin: z
      .string()
      .max(execLimits.stdinBytesMax)
      .optional()
      .openapi({ description: "UTF-8 text fed to standard input." }),
    timeoutMs: z.number().int().min(1).max(execLimits.timeoutMsMax).default(execLimits.timeoutMsDefault),
    outputBytesMax: z.number().int().min(1).max(execLimits.outputBytesMax).default(execLimits.outputBytesMax).openapi({
      description: "Output kept for this run; past it a truncation marker is written and output is dropped.",
    }),
    background: z.boolean().default(false),
    egress: EgressField,
  })
  .superRefine((body, ctx) => {
    if (body.executor === "javascript" ? !body.code : !body.command) {
      const field = body.executor === "javascript" ? "code" : "command";
      ctx.addIssue({ code: "custom", path: [field], message: `${body.executor} needs \`${field}\`` });
    }
  });

const ExecResult = z
  .object({
    id: z.string(),
    status: z.enum(["running", "completed", "failed", "cancelled", "timed_out"]),
    exitCode: z.number().int().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    result: z.unknown().optional(),
    durationMs: z.number().int().nullable(),
    truncated: z.boolean(),
    usage: z.object({ meter: z.string(), quantity: z.number().int() }).nullable(),
  })
  .openapi("ExecResult");

const route = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/exec",
  operationId: "exec",
  tags: ["Execution"],
  summary: "Run a command or module in the workspace",
  description:
    "Answers when the run ends with its output, or at once with 202 for `background: true`. With `Accept: text/event-stream` it streams `stdout`, `stderr` and `exit` events whose ids are sequence numbers; a client that disconnects resumes from `GET …/execs/{execId}/output` with `Last-Event-ID`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("exec")] as const,
  request: {
    params: WorkspaceParams,
    headers: IdempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: ExecBody } } },
  },
  responses: {
    200: {
      description: "The run ended",
      content: { "application/json": { schema: ExecResult }, "text/event-stream": { schema: z.string() } },
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
    const { object, recordStats } = await workspaceObject(c, workspaceId);
    const stream = wantsEventStream(c);
    // Every check above runs before a stored answer is replayed.
    const replay = await replayOrClaim(c, "exec", body);
    if (replay) return replay;
    const execId = newId("ex");
    const { usage } = services(c.env);
    // A concurrency slot (and, on plans with hard caps, the time left) before any work.
    const grant = await usage.startRun(principal.tenantId, {
      execId,
      executor: body.executor,
      timeoutMs: body.timeoutMs,
      // The plan's egress gate covers any network at all, allow list or not.
      egress: egress !== null,
      workspaceId,
      keyId: principal.keyId,
    });
    if (!grant.ok) {
      const headers: Record<string, string> =
        grant.retryAfterSeconds === undefined ? {} : { "retry-after": String(grant.retryAfterSeconds) };
      throw new ApiError(grant.code, grant.detail, { headers });
    }
    const started = await object.exec({
      execId,
      executor: body.executor,
      ...(body.command !== undefined ? { command: body.command } : {}),
      ...(body.code !== undefined ? { code: body.code } : {}),
      ...(body.input !== undefined ? { input: body.input as JsonValue } : {}),
      cwd,
      env: body.env,
      stdin: new TextEncoder().encode(body.stdin ?? ""),
      timeoutMs: grant.timeoutMs,
      outputBytesMax: body.outputBytesMax,
      egress,
      // The computer's limits under the tenant's plan, for container runs.
      ...(grant.resources ? { resources: grant.resources } : {}),
      tenantId: principal.tenantId,
      workspaceId,
      keyId: principal.keyId,
      background: body.background || stream,
      pathPrefix: principal.pathPrefix,
      baseUrl: new URL(c.req.url).origin,
      credentialExpiresAt: principal.expiresAt,
    });
    if ("ok" in started) {
      await usage.releaseRun(principal.tenantId, execId);
      const retryAfter = started.code === "rate_limited" ? 1 : started.retryAfterSeconds;
      const retry = retryAfter === undefined ? {} : { headers: { "retry-after": String(retryAfter) } };
      throw new ApiError(started.code, started.message, retry);
    }
    if (stream) return new Response(await object.watchExec(execId, 0), { headers: SSE_HEADERS });
    // A run may have written files: mirror the counters the index shows in lists.
    if (!body.background) await recordStats(await object.counters());
    return c.json(withResult(started), body.background ? 202 : 200);
  });
}
