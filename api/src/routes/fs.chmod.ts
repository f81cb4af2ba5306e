import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsChmod(app: App) {
  registerFsOp(app, {
    op: "chmod",
    operationId: "chmod",
    summary: "Set permission bits",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({ path: WorkspacePathField, mode: z.number().int().min(0).max(0o7777) }),
    response: FileInfo,
    run: (object, body, caller) => object.chmod(body.path, body.mode, caller),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
