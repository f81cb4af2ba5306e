import { createRoute, z } from "@hono/zod-openapi";
import { ifNoneMatchMatches } from "../../../tenants/workspace/vfs/preconditions.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { requireWholeWorkspace } from "../workspaceAccess.ts";
import { FILE_ROUTE_PATH, FilePath, workspaceObject, workspacePath } from "./filePath.ts";
import { statHeadersResponse } from "./files.head.ts";
import { parseRange } from "./range.ts";
import { pastVersion, VersionRef } from "./versions.ts";

const route = createRoute({
  method: "get",
  path: FILE_ROUTE_PATH,
  operationId: "getFile",
  tags: ["Files"],
  summary: "Read a file",
  description:
    "Streams the raw bytes with the file's strong `ETag`. `Range: bytes=a-b` answers 206 with that part; `If-None-Match: <etag>` (a list, or `*`) answers 304 when unchanged. `at` reads a past version: a snapshot id or a revision the history window keeps (a token confined to a path prefix cannot, 403; `live` is the present).",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: {
    params: WorkspaceParams.extend({ path: FilePath }),
    query: z.object({ at: VersionRef.optional() }),
    headers: z.object({ range: z.string().optional(), "if-none-match": z.string().optional() }),
  },
  responses: {
    200: {
      description: "The file's bytes",
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
    206: {
      description: "The requested range",
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
    304: { description: "Not modified" },
    ...errorResponses(404, 409, 416),
  },
});

export function registerFilesGet(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, path: rawPath } = c.req.valid("param");
    const path = workspacePath(rawPath);
    const headers = c.req.valid("header");
    const { object, prefix } = await workspaceObject(c, workspaceId);
    const at = pastVersion(c.req.valid("query").at);
    if (at !== undefined) requireWholeWorkspace(c, "a past version");
    const { stat } = orThrow(at === undefined ? await object.stat(path, prefix) : await object.statAt(at, path));
    if (c.req.method === "HEAD") return statHeadersResponse(stat);
    if (stat.type === "dir") throw new ApiError("conflict", `EISDIR: ${path} is a directory; list it with fs/list`);
    const common = {
      etag: stat.etag ?? "",
      "last-modified": new Date(stat.mtime).toUTCString(),
      "accept-ranges": "bytes",
    };
    if (headers["if-none-match"] !== undefined && ifNoneMatchMatches(headers["if-none-match"], stat)) {
      return new Response(null, { status: 304, headers: common });
    }
    const range = headers.range ? parseRange(headers.range, stat.size) : null;
    if (range === "unsatisfiable") {
      throw new ApiError("range_not_satisfiable", `the file has ${stat.size} bytes`, {
        headers: { "content-range": `bytes */${stat.size}` },
      });
    }
    const read = orThrow(
      await (at === undefined
        ? object.readFile(path, range ? { offset: range.start, length: range.end - range.start + 1 } : {}, prefix)
        : object.readFileAt(at, path, range ? { offset: range.start, length: range.end - range.start + 1 } : {})),
    );
    const length = read.end - read.start;
    // A fixed-length stream lets workerd send Content-Length instead of chunked encoding.
    const body = read.body.pipeThrough(new FixedLengthStream(length));
    const responseHeaders: Record<string, string> = {
      ...common,
      etag: read.stat.etag ?? "",
      "content-type": "application/octet-stream",
    };
    if (range) responseHeaders["content-range"] = `bytes ${read.start}-${read.end - 1}/${read.stat.size}`;
    return new Response(body, { status: range ? 206 : 200, headers: responseHeaders });
  });
}
