/**
 * HEAD on a file: its stat as headers. Hono answers every HEAD by running the GET route
 * and dropping the body, so there is no separate handler: the GET handler calls
 * `statHeadersResponse` for HEAD before opening any stream. This file documents the
 * operation in the OpenAPI document (its scope is the GET route's, `workspaces:read`) and
 * owns the header format.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Stat } from "../../../tenants/workspace/vfs/store.ts";
import type { App } from "../context.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { FilePath } from "./filePath.ts";

const route = createRoute({
  method: "head",
  path: "/v1/workspaces/{workspaceId}/files/{path}",
  operationId: "headFile",
  tags: ["Files"],
  summary: "Stat a file as headers",
  description:
    "`X-File-Size`, `ETag`, `Last-Modified`, `X-File-Type` and `X-File-Mode` for a file or directory, without its bytes.",
  security: [{ bearer: [] }],
  request: { params: WorkspaceParams.extend({ path: FilePath }) },
  responses: {
    200: { description: "The entry exists; its stat is in the headers" },
    ...errorResponses(404),
  },
});

export function registerFilesHead(app: App) {
  app.openAPIRegistry.registerPath(route);
}

export function statHeadersResponse(stat: Stat): Response {
  const headers: Record<string, string> = {
    "x-file-size": String(stat.size),
    "x-file-type": stat.type,
    "x-file-mode": stat.mode.toString(8).padStart(4, "0"),
    "last-modified": new Date(stat.mtime).toUTCString(),
  };
  if (stat.etag) headers.etag = stat.etag;
  return new Response(null, { status: 200, headers });
}
