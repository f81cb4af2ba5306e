import { createRoute, z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { orThrow } from "../fsErrors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Timestamp, WorkspaceParams } from "../schemas.ts";
import { FILE_ROUTE_PATH, FilePath, workspaceObject, workspacePath } from "./filePath.ts";

export const FileInfo = z
  .object({
    path: z.string().openapi({ example: "/src/main.ts" }),
    name: z.string(),
    type: z.enum(["file", "dir", "symlink"]),
    size: z.number().int(),
    mode: z.number().int().openapi({ description: "Permission bits, e.g. 420 (0o644)." }),
    mtime: Timestamp.openapi({ description: "Last modification, to the millisecond; `mtimeNs` is exact." }),
    mtimeNs: z.string().openapi({
      description:
        "Last modification in nanoseconds since 1970 (negative before), as a decimal string: exact, as set by `utimes` or a container command. Access times are not kept: read atime as mtime.",
      example: "1700000000123456789",
    }),
    ctime: Timestamp,
    uid: z.number().int().openapi({ description: "Owner, as the box sees it (1000 is its default user, 0 its root)." }),
    gid: z.number().int().openapi({ description: "Group, as the box sees it." }),
    ino: z.number().int().openapi({ description: "Inode number: paths with the same one are hard links to one file." }),
    nlink: z
      .number()
      .int()
      .openapi({ description: "Names of a file or link (hard links); 2 + subdirectories for a directory." }),
    etag: z.string().optional().openapi({ description: "Strong ETag of a file's content." }),
    target: z.string().optional().openapi({ description: "A symlink's target." }),
  })
  .openapi("FileInfo");

const route = createRoute({
  method: "put",
  path: FILE_ROUTE_PATH,
  operationId: "putFile",
  tags: ["Files"],
  summary: "Write a file",
  description:
    "The raw body is the file's bytes, streamed into the workspace (up to 2 GiB); missing parent directories are created. `If-Match: <etag>` writes only over that version (a comma-separated list: any of them; `*`: any existing file), `If-None-Match: *` only if nothing is there (412 otherwise). `?append=true` appends.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:write"), admits("write")] as const,
  request: {
    params: WorkspaceParams.extend({ path: FilePath }),
    query: z.object({ append: z.enum(["true", "false"]).optional() }),
    headers: z.object({
      "if-match": z.string().optional(),
      "if-none-match": z.literal("*").optional(),
    }),
    body: {
      required: true,
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
  responses: {
    200: { description: "Written", content: { "application/json": { schema: FileInfo } } },
    ...errorResponses(404, 409, 412, 413, 507),
  },
});

export function registerFilesPut(app: App) {
  app.openapi(route, async (c) => {
    const { workspaceId, path: rawPath } = c.req.valid("param");
    const path = workspacePath(rawPath);
    const headers = c.req.valid("header");
    if (Number(c.req.header("content-length") ?? "0") > workspaceLimits.fileBytesMax) {
      throw new ApiError("payload_too_large", `a file may be at most ${workspaceLimits.fileBytesMax} bytes`);
    }
    const workspace = await workspaceObject(c, workspaceId);
    const result = orThrow(
      await workspace.object.writeFile(
        path,
        await bodyOf(c.req.raw),
        {
          mode: c.req.valid("query").append === "true" ? "append" : "overwrite",
          ...(headers["if-match"] ? { ifMatch: headers["if-match"] } : {}),
          ...(headers["if-none-match"] ? { ifNoneMatch: "*" as const } : {}),
        },
        workspace.caller,
      ),
    );
    await workspace.recordStats(result);
    c.header("etag", result.stat.etag);
    return c.json(result.stat, 200);
  });
}

/**
 * Small bodies (up to one chunk, by Content-Length) are read whole: the workspace stores
 * them in one transaction without staging. Anything larger, or of unknown length, streams.
 */
async function bodyOf(request: Request): Promise<ReadableStream<Uint8Array> | Uint8Array> {
  const length = request.headers.get("content-length");
  if (!request.body) return new Uint8Array(0);
  if (length !== null && Number(length) <= workspaceLimits.chunkBytes)
    return new Uint8Array(await request.arrayBuffer());
  return request.body;
}
