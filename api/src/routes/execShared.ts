/** Schemas and helpers shared by the exec routes. */
import { z } from "@hono/zod-openapi";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { Timestamp, WorkspaceParams } from "../schemas.ts";
import { workspaceObject } from "./filePath.ts";

export const ExecRecordView = z
  .object({
    id: z.string().openapi({ example: "ex_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    executor: z.enum(["shell", "javascript", "container"]),
    summary: z.string().openapi({ description: "The first line of the command or module." }),
    status: z.enum(["running", "completed", "failed", "cancelled", "timed_out"]),
    exitCode: z.number().int().nullable(),
    error: z
      .string()
      .nullable()
      .openapi({ description: "Why the run stopped early (a limit, a kill, a crash), if it did." }),
    startedAt: Timestamp,
    endedAt: Timestamp.nullable(),
    durationMs: z.number().int().nullable(),
    outputBytes: z.number().int(),
    truncated: z.boolean(),
    nextSeq: z.number().int().openapi({ description: "The sequence number the next output event gets." }),
    result: z.unknown().optional(),
  })
  .openapi("ExecRecord");

export const OutputEventView = z
  .object({
    seq: z.number().int(),
    stream: z.enum(["stdout", "stderr", "exit"]),
    text: z.string(),
    base64: z.string().optional().openapi({ description: "The exact bytes, when they are not valid UTF-8." }),
  })
  .openapi("OutputEvent");

export const ExecParams = WorkspaceParams.extend({
  execId: z.string().openapi({ param: { name: "execId", in: "path" }, example: "ex_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
});

/** The API's view of a record or result: `resultJson` (text across RPC) becomes `result`. */
export function withResult<T extends { resultJson?: string }>(value: T): Omit<T, "resultJson"> & { result?: unknown } {
  const { resultJson, ...rest } = value;
  return resultJson === undefined ? rest : { ...rest, result: JSON.parse(resultJson) };
}

/** The workspace object after the access check, and the exec record (404 when missing). */
export async function execObject(c: AppContext, workspaceId: string, execId: string) {
  const { object } = await workspaceObject(c, workspaceId);
  const record = await object.execRecord(execId);
  if (!record) throw new ApiError("not_found", `no exec ${execId}`);
  return { object, record: withResult(record) };
}

export function wantsEventStream(c: AppContext): boolean {
  return (c.req.header("accept") ?? "").includes("text/event-stream");
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};
