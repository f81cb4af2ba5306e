import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { EntryPathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsMove(app: App) {
  registerFsOp(app, {
    op: "move",
    operationId: "move",
    summary: "Move or rename (atomic)",
    description:
      "rename(2): one step however large the directory. Replaces a file target, or an empty directory with a directory, unless `overwrite: false`. `to` may not be `from` itself or lie below it (400 `bad_request`, `fsCode` EINVAL).",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({ from: EntryPathField, to: EntryPathField, overwrite: z.boolean().default(true) }),
    response: FileInfo,
    run: (object, body, caller) => object.move(body.from, body.to, { overwrite: body.overwrite }, caller),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
