/** Schemas and helpers shared by the exec routes. */
import { z } from "@hono/zod-openapi";
import { EXEC_STATUSES, EXEC_STOP_REASONS, EXECUTORS, exitCodes, MOUNT_MODES } from "../../../executors/contract.ts";
import { isWithin, normalizePath } from "../../../tenants/workspace/paths.ts";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { Timestamp, WorkspaceParams } from "../schemas.ts";
import { workspaceObject } from "./filePath.ts";

/** One path a container run's box and the workspace both changed, and where the box's version went. */
const ExecConflictView = z
  .object({
    path: z.string().openapi({ example: "/docs/report.txt" }),
    savedAs: z.string().nullable().openapi({ example: "/docs/report.conflict-1f2e3d4c.txt" }),
  })
  .openapi("ExecConflict");

/** A run's status: `running` until it ends, then how it ended. */
export const ExecStatusView = z.enum(["running", ...EXEC_STATUSES]);

export const ExecRecordView = z
  .object({
    id: z.string().openapi({ example: "ex_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    executor: z.enum(EXECUTORS),
    summary: z.string().openapi({ description: "The first line of the command or module." }),
    status: ExecStatusView,
    exitCode: z.number().int().nullable(),
    error: z
      .string()
      .nullable()
      .openapi({ description: "Why the run stopped early (a limit, a kill, a crash), if it did." }),
    reason: z
      .enum(EXEC_STOP_REASONS)
      .nullable()
      .openapi({
        description: `Which resource limit of the sandbox ended the run (exit code ${exitCodes.killed}), or null: the container's memory or process limit under the plan.`,
      }),
    mount: z.enum(MOUNT_MODES).nullable().openapi({
      description:
        "container runs: how the box saw the workspace. `native`: a local filesystem that fetches files on first read and reports changes as they happen; `fuse`: the fallback on hosts without fanotify pre-content events. Null for the other executors.",
    }),
    conflicts: z.array(ExecConflictView).openapi({
      description:
        "container: paths the box changed that had meanwhile changed on the workspace (docs/container-sync.md, \"Conflicts\"). The workspace's version stays at `path`; the box's version was saved at `savedAs`, or `savedAs` is null when the box's change was a removal or a mode change, which was dropped. Nothing of either side is lost. Empty for other executors and runs without conflicts; at most 1,000 are listed.",
    }),
    startedAt: Timestamp,
    endedAt: Timestamp.nullable(),
    durationMs: z.number().int().nullable(),
    outputBytes: z.number().int(),
    truncated: z.boolean(),
    nextSeq: z.number().int().openapi({ description: "The sequence number the next output event gets." }),
    result: z.unknown().optional(),
    snapshotId: z.string().nullable().openapi({
      description:
        'The snapshot taken just before the run (`snapshot: "before"`), while it exists: restoring it undoes the run.',
      example: "snap_01kb1m2x3y4z5a6b7c8d9e0f1g",
    }),
    pathPrefix: z.string().nullable().openapi({
      description:
        "The path prefix the run's token was confined to (so was the run), or null. A confined token sees only runs confined at or under its own prefix.",
    }),
    egress: z.union([z.boolean(), z.object({ allow: z.array(z.string()) })]).openapi({
      description:
        "What the run could reach: `false` (no network), `true` (any public host) or `{ allow }`, its allow list as normalised (lowercase, punycode, deduplicated, sorted).",
    }),
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

/**
 * The workspace object after the access check, and the exec record: 404 when missing, and
 * for a credential confined to a path prefix, when the run was not confined at or under it
 * (its output may show any file).
 */
export async function execObject(c: AppContext, workspaceId: string, execId: string) {
  const { object, prefix } = await workspaceObject(c, workspaceId);
  const record = await object.execRecord(execId);
  const visible = record && (prefix === null || (record.pathPrefix !== null && isWithin(record.pathPrefix, prefix)));
  if (!visible) throw new ApiError("not_found", `no exec ${execId}`);
  return { object, record: withResult(record) };
}

const MOUNT = "/workspace";
const SCRATCH = "/tmp";

/**
 * A run's working directory: under /workspace (the workspace root) or /tmp (scratch). A
 * credential confined to a path prefix starts in it by default (`/workspace/src`) and may
 * not name a directory in the workspace outside it.
 */
export function execCwd(raw: string | undefined, prefix: string | null): string {
  if (raw === undefined) return prefix === null ? MOUNT : `${MOUNT}${prefix}`;
  const cwd = normalizePath(raw);
  const inWorkspace = cwd.ok && isWithin(cwd.path, MOUNT);
  // `/tmpfoo` is not under /tmp: the same whole-name rule as the workspace's.
  if (!cwd.ok || !(inWorkspace || isWithin(cwd.path, SCRATCH))) {
    throw new ApiError("validation_failed", "`cwd` must be /workspace, a path under it, or under /tmp", {
      errors: [{ in: "body", pointer: "/cwd", detail: cwd.ok ? "outside /workspace and /tmp" : cwd.detail }],
    });
  }
  if (inWorkspace && prefix !== null && !isWithin(cwd.path.slice(MOUNT.length) || "/", prefix)) {
    throw new ApiError("forbidden", `\`cwd\` ${cwd.path} is outside this token's path prefix ${prefix}`);
  }
  return cwd.path;
}

export function wantsEventStream(c: AppContext): boolean {
  return (c.req.header("accept") ?? "").includes("text/event-stream");
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};
