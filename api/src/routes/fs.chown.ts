import { z } from "@hono/zod-openapi";
import { ID_MAX } from "../../../tenants/workspace/vfs/ops/setattr.ts";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

const OwnerId = z.number().int().min(0).max(ID_MAX);

export function registerFsChown(app: App) {
  registerFsOp(app, {
    op: "chown",
    operationId: "chown",
    summary: "Set owner and group",
    description:
      "Ids are the container box's (1000 is its default user, 0 its root). Leave `uid` or `gid` out to keep it, as chown's -1. Follows a final symlink unless `followSymlinks: false` (lchown). Every hard link of the file shows the change.",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({
      path: WorkspacePathField,
      uid: OwnerId.optional(),
      gid: OwnerId.optional(),
      followSymlinks: z.boolean().default(true),
    }),
    response: FileInfo,
    run: (object, body, caller) =>
      object.chown(
        body.path,
        { ...(body.uid !== undefined ? { uid: body.uid } : {}), ...(body.gid !== undefined ? { gid: body.gid } : {}) },
        { follow: body.followSymlinks },
        caller,
      ),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
