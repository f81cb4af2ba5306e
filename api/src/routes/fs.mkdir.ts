import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsMkdir(app: App) {
  registerFsOp(app, {
    op: "mkdir",
    operationId: "mkdir",
    summary: "Create a directory",
    description: "`recursive: true` creates missing parents and succeeds if the directory exists (mkdir -p).",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({
      path: WorkspacePathField,
      recursive: z.boolean().default(false),
      mode: z.number().int().min(0).max(0o7777).optional(),
    }),
    response: FileInfo,
    run: (object, body, caller) =>
      object.mkdir(
        body.path,
        { recursive: body.recursive, ...(body.mode !== undefined ? { mode: body.mode } : {}) },
        caller,
      ),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
