import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsReadlink(app: App) {
  registerFsOp(app, {
    op: "readlink",
    operationId: "readlink",
    summary: "Read a symbolic link's target",
    description: "An entry that is not a symbolic link answers 400 `bad_request` with `fsCode` EINVAL, as readlink(2).",
    scope: "workspaces:read",
    admission: "request",
    body: z.object({ path: WorkspacePathField }),
    response: z.object({ target: z.string() }),
    run: (object, body, caller) => object.readlink(body.path, caller),
    respond: (result: { target: string }) => ({ target: result.target }),
  });
}
