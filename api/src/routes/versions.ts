/**
 * The rest of the time machine: `POST …/restore`, `GET …/diff` and `GET …/history`
 * (docs/vfs.md, "Versions"). A version is named by a snapshot id, a revision number, or
 * `live`; a revision neither a snapshot nor the plan's history window keeps is 404, a malformed one 400.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import { pathPatterns } from "../../../tenants/workspace/pathPatterns.ts";
import type { App } from "../context.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Timestamp, WorkspaceParams } from "../schemas.ts";
import { requireWholeWorkspace } from "../workspaceAccess.ts";
import { workspaceObject, workspacePath } from "./filePath.ts";

export const VersionRef = z
  .string()
  .max(64)
  .regex(/^(live|\d{1,15}|snap_[0-9a-z]{1,40})$/, "a snapshot id, a revision number or `live`")
  .openapi({
    description: "A snapshot id (`snap_…`), a revision number, or `live`.",
    example: "snap_01kb1m2x3y4z5a6b7c8d9e0f1g",
  });

/** A version a read is asked at, or undefined for the live tree (`live` is the present, read as any live read). */
export function pastVersion(at: string | undefined): string | undefined {
  return at === "live" ? undefined : at;
}

const restoreRoute = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/restore",
  operationId: "restoreWorkspace",
  tags: ["Versions"],
  summary: "Restore a version",
  description:
    "Makes the live tree equal to a snapshot's or a kept revision's, and names that version as `restoredTo`. The restore is itself a new revision, so restoring the revision before it undoes it; a running container sees it like any other change. A tree already equal to the version (no path a diff lists, no directory whose mode, owner or times differ) is left alone: no new revision, `changedPaths` 0, `revision` the live one. Its cost follows what changed since that version, not the workspace's size.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("write")] as const,
  request: {
    params: WorkspaceParams,
    body: {
      required: true,
      content: {
        "application/json": {
          // Exactly one of the two, said in the schema itself (a closed object of one
          // property), so a request valid by the contract is one the route takes.
          schema: z
            .object({
              snapshotId: z
                .string()
                .max(64)
                .regex(/^snap_[0-9a-z]{1,40}$/, "a snapshot id")
                .optional(),
              revision: z.number().int().min(0).optional(),
            })
            .strict()
            .refine((b) => (b.snapshotId === undefined) !== (b.revision === undefined), "give snapshotId or revision")
            .openapi("RestoreRequest", {
              description: "A snapshot id or a kept revision: exactly one.",
              minProperties: 1,
              maxProperties: 1,
            }),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Restored",
      content: {
        "application/json": {
          schema: z
            .object({
              revision: z.number().int().openapi({
                description:
                  "The new revision the restore made; the live revision, unchanged, when nothing differed (`changedPaths` 0).",
              }),
              changedPaths: z.number().int().openapi({ description: "Paths that differed and were set back." }),
              restoredTo: z
                .object({
                  revision: z.number().int().openapi({ description: "The revision the tree now equals." }),
                  snapshotId: z
                    .string()
                    .nullable()
                    .openapi({ description: "The snapshot that revision was named by, when the request named one." }),
                })
                .openapi({ description: "The version the live tree was made equal to." }),
            })
            .openapi("RestoreResult"),
        },
      },
    },
    ...errorResponses(404, 507),
  },
});

const DiffSide = z
  .object({
    type: z.enum(["file", "dir", "symlink"]),
    size: z.number().int(),
    mode: z.number().int(),
    etag: z.string().optional(),
    target: z.string().optional(),
  })
  .openapi("DiffSide");

const diffRoute = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/diff",
  operationId: "diffWorkspace",
  tags: ["Versions"],
  summary: "What changed between two versions",
  description:
    "Each changed path once, `added`, `modified`, `deleted` or `renamed` (same file, new name; a renamed directory is one entry), with sizes and ETags on each side. `path` (a file or a directory) keeps what is at or under it; a rename counts when either of its ends is. `format=patch` adds a unified diff of the text files (binary or over 1 MiB: `Binary files … differ`); a patch over 8 MiB answers 413 `payload_too_large` naming the cap: narrow it with `path`, closer versions, or `format=json`. Its cost grows with the number of changes, not the workspace's size.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    query: z.object({
      from: VersionRef,
      to: VersionRef.default("live"),
      format: z.enum(["json", "patch"]).default("json"),
      // Checked by workspacePath() below, which names the rule broken (400 `invalid_path`).
      path: z.string().optional().openapi({
        description: "Only what is at or under this path (a file or a directory), as `/src`.",
        pattern: pathPatterns.any,
        maxLength: workspaceLimits.pathLengthMax,
        example: "/src",
      }),
    }),
  },
  responses: {
    200: {
      description: "The differences",
      content: {
        "application/json": {
          schema: z
            .object({
              from: z.number().int(),
              to: z.number().int(),
              entries: z.array(
                z.object({
                  path: z.string(),
                  status: z.enum(["added", "modified", "deleted", "renamed"]),
                  previousPath: z.string().optional(),
                  before: DiffSide.optional(),
                  after: DiffSide.optional(),
                }),
              ),
              truncated: z.boolean(),
              patch: z.string().optional(),
            })
            .openapi("Diff"),
        },
      },
    },
    ...errorResponses(404, 413),
  },
});

const historyRoute = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/history",
  operationId: "fileHistory",
  tags: ["Versions"],
  summary: "A path's versions",
  description:
    "Every kept version of what the path has named, newest first: the revision that made it and the one that ended it, when, who made it (`key:<id>` for API calls, `exec:<id>` for a run's changes, container pushes included; `container` for a box's change no single run can be named for), its size and ETag, and `readAt`: the value to pass as `?at=` to read it back. Versions are kept for the plan's history window and while a snapshot pins them; a run keeps one version per file, what it left.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    query: z.object({
      path: z.string().min(1).openapi({
        description: "The path, as `/src/app.ts`; `/` lists the root directory's versions.",
        pattern: pathPatterns.any,
        maxLength: workspaceLimits.pathLengthMax,
      }),
    }),
  },
  responses: {
    200: {
      description: "The versions",
      content: {
        "application/json": {
          schema: z
            .object({
              path: z.string(),
              versions: z.array(
                z.object({
                  revision: z.number().int(),
                  until: z.number().int().nullable(),
                  at: Timestamp.nullable(),
                  actor: z.string().nullable(),
                  op: z.string().nullable(),
                  restoredTo: z.string().nullable().openapi({
                    description:
                      "For a version a restore made: the version it went back to (a snapshot id or a revision).",
                  }),
                  readAt: VersionRef.openapi({
                    description:
                      "What to pass as `?at=` (to `GET …/files/{path}`, `fs/list`, `fs/stat`) to read this version back: a revision, or a snapshot pinning it.",
                    example: "42",
                  }),
                  type: z.enum(["file", "dir", "symlink"]),
                  size: z.number().int(),
                  mode: z.number().int(),
                  etag: z.string().optional(),
                  target: z.string().optional(),
                  ino: z.number().int(),
                }),
              ),
            })
            .openapi("FileHistory"),
        },
      },
    },
    ...errorResponses(404),
  },
});

export function registerVersions(app: App) {
  app.openapi(restoreRoute, async (c) => {
    const workspace = await workspaceObject(c, c.req.valid("param").workspaceId);
    requireWholeWorkspace(c, "a restore");
    const body = c.req.valid("json");
    const ref = body.snapshotId ?? String(body.revision);
    const result = orThrow(await workspace.object.restore(ref, workspace.caller.actor));
    await workspace.recordStats(result);
    return c.json({ revision: result.revision, changedPaths: result.changedPaths, restoredTo: result.restoredTo }, 200);
  });
  app.openapi(diffRoute, async (c) => {
    const { object } = await workspaceObject(c, c.req.valid("param").workspaceId);
    requireWholeWorkspace(c, "a diff");
    const { from, to, format, path } = c.req.valid("query");
    const within = path === undefined ? undefined : workspacePath(path, { allowRoot: true });
    const { ok: _ok, ...result } = orThrow(await object.diff(from, to, format === "patch", within));
    return c.json(result, 200);
  });
  app.openapi(historyRoute, async (c) => {
    const { object } = await workspaceObject(c, c.req.valid("param").workspaceId);
    requireWholeWorkspace(c, "a file's history");
    const { ok: _ok, ...result } = orThrow(await object.history(c.req.valid("query").path));
    return c.json(result, 200);
  });
}
