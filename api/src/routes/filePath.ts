/** The `{path}` part of file URLs: everything after `/files/`, checked by the workspace's path rules. */
import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import { pathPatterns } from "../../../tenants/workspace/pathPatterns.ts";
import { normalizePath } from "../../../tenants/workspace/paths.ts";
import type { Caller, Reported, WorkspaceStats } from "../../../tenants/workspace/WorkspaceDO.ts";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { keyActor, requireWorkspace, requireWorkspaceForRun } from "../workspaceAccess.ts";

/**
 * The route of a file's URL. `[\s\S]+`, not `.+`: a dot stops at line terminators, so a
 * path with a newline, CR, U+2028 or U+2029 would match no route and answer 404; matched,
 * it reaches `workspacePath`, which answers 400 `invalid_path` for control characters and
 * serves any other name. The OpenAPI document shows it as `{path}`.
 */
export const FILE_ROUTE_PATH = "/v1/workspaces/{workspaceId}/files/{path{[\\s\\S]+}}";

/**
 * The pattern is documentation: `workspacePath` below enforces the same rules (the root is
 * refused, being a directory), answering 400 `invalid_path` with the rule broken.
 */
export const FilePath = z.string().openapi({
  param: { name: "path", in: "path" },
  description:
    "The file's path inside the workspace, without the leading slash; `/` separators are allowed. No control characters, empty segments (`//`) or `..` segments; names of at most 255 UTF-8 bytes.",
  pattern: pathPatterns.belowRoot,
  maxLength: workspaceLimits.pathLengthMax,
  example: "src/main.ts",
});

/** Normalises a path into a workspace path, or answers 400 with why it was refused. */
export function workspacePath(raw: string, { allowRoot = false } = {}): string {
  const result = normalizePath(raw);
  if (!result.ok) {
    throw new ApiError("invalid_path", result.detail, {
      errors: [{ in: "path", pointer: "/path", detail: result.detail }],
    });
  }
  if (result.path === "/" && !allowRoot)
    throw new ApiError("invalid_path", "the workspace root is a directory, not a file");
  return result.path;
}

/**
 * The workspace object for a route's `{workspaceId}`, after the access check (an exec's, with
 * `forRun`, leaves whether the workspace exists to its run); the path prefix the credential
 * is confined to, which every path-taking call passes on to the object (it refuses paths
 * outside with EACCES, 403 here); and the principal's tenant, for mirroring counters into
 * the index afterwards.
 */
export async function workspaceObject(c: AppContext, workspaceId: string, { forRun = false } = {}) {
  await (forRun ? requireWorkspaceForRun(c, workspaceId) : requireWorkspace(c, workspaceId));
  const { tenantId, pathPrefix } = c.get("principal");
  const { workspaces } = c.var.services;
  const caller: Caller = { prefix: pathPrefix, actor: keyActor(c.get("principal").keyId) };
  return {
    object: workspaces.object(tenantId, workspaceId),
    prefix: pathPrefix,
    /** For changes: the prefix, and the key the history records them as made by. */
    caller,
    /**
     * Mirrors a mutation's exact counters into the D1 index (lists read them from there)
     * and a size change into the tenant's storage meter; nothing when they did not move
     * since the object's previous answer, so a mutation that changed nothing costs no write.
     */
    recordStats: async ({ stats, previous }: { stats: WorkspaceStats; previous?: WorkspaceStats | null }) => {
      if (!moved(stats, previous)) return;
      await Promise.all([
        workspaces.recordStats(tenantId, workspaceId, stats),
        // Storage is billed by the byte-hour of unique bytes (docs/billing.md) from the moment they changed.
        previous && stats.uniqueBytes === previous.uniqueBytes
          ? null
          : c.var.services.usage.storageChanged(tenantId, workspaceId, stats.uniqueBytes, stats.revision),
      ]);
    },
    /**
     * Mirrors counters into the D1 index only, for a run: the workspace object reported the
     * size to the tenant's ledger itself, with the run's time. Nothing when they did not move,
     * so a read-only run costs no write.
     */
    mirrorStats: async ({ stats, previous }: Reported) => {
      if (moved(stats, previous)) await workspaces.recordStats(tenantId, workspaceId, stats);
    },
  };
}

/**
 * Whether the index's counters may be behind: they moved since the object last answered, or
 * this is its instance's first answer (the index may have missed a write before it).
 */
function moved(stats: WorkspaceStats, previous: WorkspaceStats | null | undefined): boolean {
  return (
    !previous ||
    stats.sizeBytes !== previous.sizeBytes ||
    stats.fileCount !== previous.fileCount ||
    stats.uniqueBytes !== previous.uniqueBytes
  );
}
