/**
 * Snapshots of a workspace: `POST/GET /v1/workspaces/{id}/snapshots` and
 * `GET/DELETE …/snapshots/{snapshotId}`. A snapshot pins a revision without copying a byte
 * (docs/vfs.md, "Versions"); ids live in the workspace's own object, so another
 * workspace's or tenant's id answers 404 like any unknown one.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, PageQuery, page, Timestamp, WorkspaceParams } from "../schemas.ts";
import { keyActor, requireWholeWorkspace } from "../workspaceAccess.ts";
import { workspaceObject } from "./filePath.ts";

export const Snapshot = z
  .object({
    id: z.string().openapi({ example: "snap_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    revision: z.number().int().openapi({ description: "The filesystem revision the snapshot pins." }),
    name: z.string().nullable(),
    description: z.string().nullable(),
    createdAt: Timestamp,
    sizeBytes: z.number().int().openapi({ description: "The workspace's logical size at the revision." }),
    fileCount: z.number().int(),
    actor: z.string().nullable().openapi({ description: "Who took it: `key:<id>` or `exec:<id>`." }),
    execId: z.string().nullable().openapi({
      description: 'The run it was taken just before (`snapshot: "before"` on exec), or null.',
      example: "ex_01kb1m2x3y4z5a6b7c8d9e0f1g",
    }),
  })
  .openapi("Snapshot");

const SnapshotParams = WorkspaceParams.extend({
  snapshotId: z
    .string()
    .max(64)
    .openapi({ param: { name: "snapshotId", in: "path" }, example: "snap_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
});

const create = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/snapshots",
  operationId: "createSnapshot",
  tags: ["Versions"],
  summary: "Take a snapshot",
  description:
    "Pins the workspace's current revision: no byte is copied, and everything it reaches is kept until the snapshot is deleted. Taking one costs the same whatever the workspace's size. Each plan keeps a number of snapshots per workspace; past it, 429 `quota_exceeded`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("request")] as const,
  request: {
    params: WorkspaceParams,
    body: {
      required: false,
      content: {
        "application/json": {
          schema: z.object({
            name: z.string().max(200).optional(),
            description: z.string().max(2_000).optional(),
          }),
        },
      },
    },
  },
  responses: {
    201: { description: "Taken", content: { "application/json": { schema: Snapshot } } },
    ...errorResponses(404),
  },
});

const list = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/snapshots",
  operationId: "listSnapshots",
  tags: ["Versions"],
  summary: "List snapshots",
  description: "Newest first.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { params: WorkspaceParams, query: PageQuery },
  responses: {
    200: { description: "A page", content: { "application/json": { schema: page(Snapshot, "SnapshotPage") } } },
    ...errorResponses(404),
  },
});

const get = createRoute({
  method: "get",
  path: "/v1/workspaces/{workspaceId}/snapshots/{snapshotId}",
  operationId: "getSnapshot",
  tags: ["Versions"],
  summary: "Get a snapshot",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { params: SnapshotParams },
  responses: {
    200: { description: "The snapshot", content: { "application/json": { schema: Snapshot } } },
    ...errorResponses(404),
  },
});

const remove = createRoute({
  method: "delete",
  path: "/v1/workspaces/{workspaceId}/snapshots/{snapshotId}",
  operationId: "deleteSnapshot",
  tags: ["Versions"],
  summary: "Delete a snapshot",
  description:
    "Unpins its revision. What only it kept is freed by the workspace's next maintenance pass (within a minute), unless the history window still covers it.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("request")] as const,
  request: { params: SnapshotParams },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses(404),
  },
});

export function registerSnapshots(app: App) {
  app.openapi(create, async (c) => {
    const { object } = await workspaceObject(c, c.req.valid("param").workspaceId);
    requireWholeWorkspace(c, "a snapshot");
    const body = c.req.valid("json") ?? {};
    const taken = await object.createSnapshot(
      { ...(body.name ? { name: body.name } : {}), ...(body.description ? { description: body.description } : {}) },
      keyActor(c.get("principal").keyId),
    );
    if (!taken.ok) throw new ApiError("quota_exceeded", taken.message);
    return c.json(taken.snapshot, 201);
  });
  app.openapi(list, async (c) => {
    const { object } = await workspaceObject(c, c.req.valid("param").workspaceId);
    requireWholeWorkspace(c, "snapshots");
    const { limit, cursor } = c.req.valid("query");
    const found = await object.listSnapshots(limit, cursor);
    return c.json({ data: found.snapshots, nextCursor: found.nextCursor }, 200);
  });
  app.openapi(get, async (c) => {
    const { workspaceId, snapshotId } = c.req.valid("param");
    const { object } = await workspaceObject(c, workspaceId);
    requireWholeWorkspace(c, "snapshots");
    const snapshot = await object.getSnapshot(snapshotId);
    if (!snapshot) throw new ApiError("not_found", `no snapshot ${snapshotId}`);
    return c.json(snapshot, 200);
  });
  app.openapi(remove, async (c) => {
    const { workspaceId, snapshotId } = c.req.valid("param");
    const workspace = await workspaceObject(c, workspaceId);
    requireWholeWorkspace(c, "a snapshot");
    if (!(await workspace.object.deleteSnapshot(snapshotId)))
      throw new ApiError("not_found", `no snapshot ${snapshotId}`);
    // What only the snapshot reached is no longer billed (docs/billing.md).
    await workspace.recordStats({ stats: await workspace.object.counters() });
    return c.body(null, 204);
  });
}
