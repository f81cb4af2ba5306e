import { z } from "@hono/zod-openapi";
import { regexes } from "zod";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { BatchOp } from "../../../tenants/workspace/vfs/ops/batch.ts";
import type { App } from "../context.ts";
import { EntryPathField, WorkspacePathField } from "../schemas.ts";
import { FileInfo } from "./files.put.ts";
import { registerFsOp } from "./fsOp.ts";

const WriteOp = z.object({
  op: z.literal("write"),
  path: WorkspacePathField,
  content: z.string().optional().openapi({ description: "UTF-8 text content." }),
  contentBase64: z
    .string()
    // Padded standard base64, which `atob` below always decodes; anything else is refused here.
    .regex(regexes.base64, "must be padded base64 (A–Z, a–z, 0–9, `+`, `/`, `=`)")
    .optional()
    .openapi({ description: "Binary content, base64-encoded (padded); it wins over `content` when both are given." }),
  ifMatch: z.string().optional(),
  exclusive: z.boolean().optional().openapi({ description: "Fail if the file exists." }),
});
const DeleteOp = z.object({
  op: z.literal("delete"),
  path: EntryPathField,
  recursive: z.boolean().optional(),
  ifMatch: z.string().optional(),
});
const MoveOp = z.object({
  op: z.literal("move"),
  from: EntryPathField,
  to: EntryPathField,
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
    admission: "write",
    body: z.object({
      ops: z
        .array(z.discriminatedUnion("op", [WriteOp, DeleteOp, MoveOp]))
        .min(1)
        .max(workspaceLimits.batchOpsMax),
    }),
    response: BatchResult,
    run: (object, body, caller) => object.batch(body.ops.map(toBatchOp), caller),
    respond: (result: z.infer<typeof BatchResult>) => ({ results: result.results }),
  });
}
