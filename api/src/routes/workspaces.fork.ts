/**
 * `POST /v1/workspaces/{id}/fork`: a new workspace of the same tenant whose files are the
 * source's at a version (a snapshot, a kept revision, or live). The source pins the version
 * and counts it, and the new workspace's object answers at once: it imports the version's
 * rows in the background, its reads answered by the source meanwhile and its changes and
 * runs waiting for the rows; content is shared, read through from the source until the
 * fork's alarm has copied it all, and a source about to be deleted hands it over first
 * (docs/vfs.md, "Forks"). The workspace is added to the index only after the object has
 * recorded its source, so a fork that failed midway never appears.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { fsError } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { replayOrClaim } from "../middleware/idempotency.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, IdempotencyHeaders, Metadata, Name, Workspace, WorkspaceParams } from "../schemas.ts";
import { keyActor, requireNewWorkspacesAllowed, requireWholeWorkspace, requireWorkspace } from "../workspaceAccess.ts";

const ForkRequest = z
  .object({
    snapshotId: z
      .string()
      .max(64)
      .regex(/^snap_[0-9a-z]{1,40}$/, "a snapshot id")
      .optional()
      .openapi({ description: "Fork the version this snapshot pins." }),
    revision: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: "Fork a kept revision (within the history window or pinned by a snapshot)." }),
    name: Name.optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .refine((b) => b.snapshotId === undefined || b.revision === undefined, "give snapshotId or revision, not both")
  .openapi("ForkRequest", {
    description: "At most one of `snapshotId` and `revision`; with neither, the live tree is forked.",
    not: { required: ["snapshotId", "revision"] },
  });

const route = createRoute({
  method: "post",
  path: "/v1/workspaces/{workspaceId}/fork",
  operationId: "forkWorkspace",
  tags: ["Workspaces"],
  summary: "Fork a workspace",
  description:
    "Makes a new workspace of the same tenant whose files (content, modes, owners, times, hard links, symlinks) are the source's at a snapshot, a kept revision, or now. No content is copied up front: the fork reads it through from the source and copies it in the background, and deleting the source never breaks the fork. Its first command, of any executor, may run at once. The fork is billed for the unique bytes its tree reaches, copied yet or not. Each plan allows a number of forks per workspace; past it, 429 `quota_exceeded`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("write")] as const,
  request: {
    params: WorkspaceParams,
    headers: IdempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: ForkRequest } } },
  },
  responses: {
    201: { description: "Forked", content: { "application/json": { schema: Workspace } } },
    ...errorResponses(404, 409),
  },
});

export function registerWorkspacesFork(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.req.valid("param");
    await requireWorkspace(c, workspaceId);
    requireWholeWorkspace(c, "forking the workspace");
    const principal = c.get("principal");
    requireNewWorkspacesAllowed(c);
    const body = c.req.valid("json");
    const replay = await replayOrClaim(c, "forkWorkspace", { workspaceId, ...body });
    if (replay) return replay as never;
    const { workspaces, usage } = c.var.services;
    const terms = await usage.versionTerms(principal.tenantId);
    if ((await workspaces.forkCount(principal.tenantId, workspaceId)) >= terms.forksPerWorkspaceMax) {
      throw new ApiError(
        "quota_exceeded",
        `this plan allows at most ${terms.forksPerWorkspaceMax} forks of one workspace; delete one first`,
      );
    }
    const ref = body.snapshotId ?? (body.revision === undefined ? "live" : String(body.revision));
    const forked = await workspaces.fork(principal.tenantId, workspaceId, {
      ref,
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      actor: keyActor(principal.keyId),
    });
    if (!forked.ok) {
      if (forked.code === "quota_exceeded") throw new ApiError("quota_exceeded", forked.message);
      throw fsError(forked);
    }
    // The fork's bytes are billed from now, as any workspace's (docs/billing.md).
    await usage.storageChanged(
      principal.tenantId,
      forked.workspace.id,
      forked.stats.uniqueBytes,
      forked.stats.revision,
    );
    return c.json(forked.workspace, 201);
  });
}
