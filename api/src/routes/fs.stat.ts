import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsStat(app: App) {
  registerFsOp(app, {
    op: "stat",
    operationId: "statPath",
    summary: "Stat a path",
    description: "Follows a final symlink unless `followSymlinks: false` (lstat).",
    scope: "workspaces:read",
    admission: "request",
    body: z.object({ path: WorkspacePathField, followSymlinks: z.boolean().default(true) }),
    response: FileInfo,
    run: (object, body, prefix) =>
      body.followSymlinks ? object.stat(body.path, prefix) : object.lstat(body.path, prefix),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
