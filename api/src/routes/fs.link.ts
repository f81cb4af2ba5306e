import { z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { EntryPathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsLink(app: App) {
  registerFsOp(app, {
    op: "link",
    operationId: "link",
    summary: "Create a hard link",
    description:
      "`path` becomes another name of the file (or symlink: a final one in `existing` is not followed) at `existing`: one file, whose content, mode, owner and times every name shares, and which lives until its last name is removed. Bytes and file counts are counted once. A directory is refused (409, `fsCode` EPERM); an existing `path` is 409 EEXIST; the new name's directory must exist.",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({ existing: EntryPathField, path: EntryPathField }),
    response: FileInfo,
    run: (object, body, caller) => object.hardLink(body.existing, body.path, caller),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
