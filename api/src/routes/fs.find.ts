import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { App } from "../context.ts";
import { Timestamp, WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";
import { pastVersion, VersionRef } from "./versions.ts";

const FindResult = z.object({ entries: z.array(FileInfo), truncated: z.boolean() }).openapi("FindResult");

export function registerFsFind(app: App) {
  registerFsOp(app, {
    op: "find",
    operationId: "find",
    summary: "Find entries by name, type, size and modification time",
    description:
      "`name` is a glob on the entry's name (`*.ts`), or on its path relative to `path` when it contains `/`. `at` searches a past version: a snapshot id or a revision the history window keeps (a token confined to a path prefix cannot, 403; `live` is the present).",
    scope: "workspaces:read",
    admission: "request",
    body: z.object({
      path: WorkspacePathField.default("/"),
      name: z.string().max(1024).optional(),
      type: z.enum(["file", "dir", "symlink"]).optional(),
      minSize: z.number().int().min(0).optional(),
      maxSize: z.number().int().min(0).optional(),
      modifiedAfter: Timestamp.optional(),
      modifiedBefore: Timestamp.optional(),
      limit: z.number().int().min(1).max(workspaceLimits.listPageMax).optional(),
      at: VersionRef.optional(),
    }),
    response: FindResult,
    // A past version is searched whole-workspace: a confined caller is refused (403) before it.
    wholeWorkspace: (body) => (pastVersion(body.at) === undefined ? null : "a past version"),
    run: (object, { path, at: ref, ...options }, caller) => {
      const at = pastVersion(ref);
      return at === undefined ? object.find(path, options, caller) : object.findAt(at, path, options);
    },
    respond: (result: z.infer<typeof FindResult>) => ({ entries: result.entries, truncated: result.truncated }),
  });
}
