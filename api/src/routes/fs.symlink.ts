import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import { pathPatterns } from "../../../tenants/workspace/pathPatterns.ts";
import type { App } from "../context.ts";
import { EntryPathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsSymlink(app: App) {
  registerFsOp(app, {
    op: "symlink",
    operationId: "symlink",
    summary: "Create a symbolic link",
    description:
      "`target` is relative to the link's directory, or absolute within the workspace; it never leads outside it.",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({
      target: z
        .string()
        .min(1)
        .max(workspaceLimits.symlinkTargetLengthMax)
        .regex(new RegExp(pathPatterns.linkTarget), "a link target may not contain NUL"),
      path: EntryPathField,
    }),
    response: FileInfo,
    run: (object, body, caller) => object.symlink(body.target, body.path, caller),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
