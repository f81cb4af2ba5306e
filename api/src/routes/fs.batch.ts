import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { BatchOp } from "../../../tenants/workspace/vfs/ops/batch.ts";
import type { App } from "../app.ts";
import { WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

const WriteOp = z.object({
  op: z.literal("write"),
  path: WorkspacePathField,
  content: z.string().optional().openapi({ description: "UTF-8 text content." }),
  contentBase64: z.string().optional().openapi({ description: "Binary content, base64-encoded." }),
  ifMatch: z.string().optional(),
  exclusive: z.boolean().optional().openapi({ description: "Fail if the file exists." }),
});
const DeleteOp = z.object({
  op: z.literal("delete"),
  path: WorkspacePathField,
  recursive: z.boolean().optional(),
  ifMatch: z.string().optional(),
});
const MoveOp = z.object({
  op: z.literal("move"),
  from: WorkspacePathField,
  to: WorkspacePathField,
  overwrite: z.boolean().optional(),
});

const BatchResult = z
  .object({
    results: z.array(
      z.union([
        z.object({ op: z.literal("write"), stat: FileInfo }),
        z.object({ op: z.literal("delete"), removed: z.number().int() }),
        z.object({ op: z.literal("move"), stat: FileInfo }),
      ]),
    ),
  })
  .openapi("BatchResult");

function toBatchOp(op: z.infer<typeof WriteOp> | z.infer<typeof DeleteOp> | z.infer<typeof MoveOp>): BatchOp {
  if (op.op !== "write") return op;
  const content =
    op.contentBase64 !== undefined
      ? Uint8Array.from(atob(op.contentBase64), (c) => c.charCodeAt(0))
      : new TextEncoder().encode(op.content ?? "");
  return {
    op: "write",
    path: op.path,
    content,
    ...(op.ifMatch !== undefined ? { ifMatch: op.ifMatch } : {}),
    ...(op.exclusive ? { exclusive: true } : {}),
  };
}

export function registerFsBatch(app: App) {
  registerFsOp(app, {
    op: "batch",
    operationId: "batch",
    summary: "Apply writes, deletes and moves all-or-nothing",
    description:
      "Operations apply in order in one transaction. If any fails, none is applied, and the error names the failing operation's index.",
    scope: "workspaces:write",
    body: z.object({
      ops: z
        .array(z.discriminatedUnion("op", [WriteOp, DeleteOp, MoveOp]))
        .min(1)
        .max(workspaceLimits.batchOpsMax),
    }),
    response: BatchResult,
    run: (object, body, prefix) => object.batch(body.ops.map(toBatchOp), prefix),
    respond: (result: z.infer<typeof BatchResult>) => ({ results: result.results }),
  });
}
