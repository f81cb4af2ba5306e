import { z } from "@hono/zod-openapi";
import { parseNs } from "../../../tenants/workspace/vfs/times.ts";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

export function registerFsUtimes(app: App) {
  registerFsOp(app, {
    op: "utimes",
    operationId: "utimes",
    summary: "Set the modification time",
    description:
      "Sets mtime to `mtimeNs` exactly (nanoseconds since 1970, negative before, as a decimal string), or to now when it is left out (touch). Access times are not kept, so there is none to set; ctime becomes now. Follows a final symlink unless `followSymlinks: false`. Every hard link of the file shows the change.",
    scope: "workspaces:write",
    admission: "request",
    body: z.object({
      path: WorkspacePathField,
      // 19 digits reach from 1653 to 2286, every one of them a time the workspace keeps.
      mtimeNs: z
        .string()
        .regex(/^-?\d{1,19}$/, "a decimal count of nanoseconds, at most 19 digits")
        .optional()
        .openapi({ example: "1700000000123456789" }),
      followSymlinks: z.boolean().default(true),
    }),
    response: FileInfo,
    run: (object, body, caller) =>
      object.utimes(
        body.path,
        body.mtimeNs === undefined ? "now" : (parseNs(body.mtimeNs) ?? "now"),
        { follow: body.followSymlinks },
        caller,
      ),
    respond: (result: { stat: z.infer<typeof FileInfo> }) => result.stat,
  });
}
