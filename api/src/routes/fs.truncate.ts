import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsTruncate(app: App) {
  registerFsOp(app, {
    op: "truncate",
    operationId: "truncate",
    summary: "Cut a file to a size, or extend it with zero bytes",
    scope: "workspaces:write",
    admission: "write",
    body: z.object({
      path: WorkspacePathField,
      size: z
        .number()
        .int()
        .min(0)
        .max(workspaceLimits.fileBytesMax)
        .openapi({ description: "Bytes; at most the file size limit." }),
    }),
    response: FileInfo,
    run: (object, body, caller) => object.truncate(body.path, body.size, caller),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
