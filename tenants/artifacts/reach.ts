/**
 * What part of a tenant's workspaces a credential reaches: all of it, some workspaces, or
 * one path prefix inside them. Artifacts and share links are tenant-wide records, so every
 * read of one checks that it came from inside the reader's reach; to a credential that
 * reaches less, the rest answer 404 like ids that do not exist.
 */
import { and, eq, gte, inArray, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { isWithin } from "../workspace/paths.ts";

export interface Reach {
  /** The only workspaces the credential may name, or null for all of the tenant's. */
  workspaceIds: readonly string[] | null;
  /** The path prefix it is confined to inside them, or null for whole workspaces. */
  pathPrefix: string | null;
}

export function reaches(reach: Reach, workspaceId: string, path: string): boolean {
  if (reach.workspaceIds !== null && !reach.workspaceIds.includes(workspaceId)) return false;
  return reach.pathPrefix === null || isWithin(path, reach.pathPrefix);
}

/**
 * The same rule as a SQL condition over a workspace column and a path column. "At or under
 * the prefix" is the path itself or the byte range [`prefix/`, `prefix0`): `0` follows `/`
 * in ASCII, and SQLite compares text by its bytes, so no LIKE escaping is needed.
 */
export function reachCondition(reach: Reach, workspace: SQLiteColumn, path: SQLiteColumn): SQL | undefined {
  const { workspaceIds, pathPrefix } = reach;
  return and(
    workspaceIds === null ? undefined : inArray(workspace, [...workspaceIds]),
    pathPrefix === null
      ? undefined
      : or(eq(path, pathPrefix), and(gte(path, `${pathPrefix}/`), lt(path, `${pathPrefix}0`))),
  );
}
