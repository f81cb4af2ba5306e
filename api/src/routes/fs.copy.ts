import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { EntryPathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsCopy(app: App) {
  registerFsOp(app, {
    op: "copy",
    operationId: "copy",
    summary: "Copy a file or directory",
    description:
      "Content is shared with the source, not duplicated. An existing target is 409 unless `overwrite: true` (files only). `to` may not lie below `from`, nor be the same file (400 `bad_request`, `fsCode` EINVAL).",
    scope: "workspaces:write",
    admission: "write",
    body: z.object({ from: EntryPathField, to: EntryPathField, overwrite: z.boolean().default(false) }),
    response: FileInfo,
    run: (object, body, caller) => object.copy(body.from, body.to, { overwrite: body.overwrite }, caller),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
