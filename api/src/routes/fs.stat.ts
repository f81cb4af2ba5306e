import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";
import { pastVersion, VersionRef } from "./versions.ts";

export function registerFsStat(app: App) {
  registerFsOp(app, {
    op: "stat",
    operationId: "statPath",
    summary: "Stat a path",
    description:
      "Follows a final symlink unless `followSymlinks: false` (lstat). `at` stats a past version: a snapshot id or a revision the history window keeps, as `GET …/files/{path}?at=` reads one (a token confined to a path prefix cannot, 403; `live` is the present).",
    scope: "workspaces:read",
    admission: "request",
    body: z.object({
      path: WorkspacePathField,
      followSymlinks: z.boolean().default(true),
      at: VersionRef.optional(),
    }),
    response: FileInfo,
    // A past version is read whole-workspace: a confined caller is refused (403) before it.
    wholeWorkspace: (body) => (pastVersion(body.at) === undefined ? null : "a past version"),
    run: (object, body, caller) => {
      const at = pastVersion(body.at);
      if (at !== undefined) return object.statAt(at, body.path, body.followSymlinks);
      return body.followSymlinks ? object.stat(body.path, caller) : object.lstat(body.path, caller);
    },
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
