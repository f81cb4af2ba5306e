import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { App } from "../app.ts";
import { WorkspacePathField } from "../schemas.ts";
import { registerFsOp } from "./fsOp.ts";

const GrepResult = z
  .object({
    matches: z.array(z.object({ path: z.string(), line: z.number().int(), text: z.string() })),
    truncated: z.boolean().openapi({ description: "True when `maxMatches` or the scan limit cut the search short." }),
  })
  .openapi("GrepResult");

export function registerFsGrep(app: App) {
  registerFsOp(app, {
    op: "grep",
    operationId: "grep",
    summary: "Search file contents with a regular expression",
    description:
      "RE2 regular expression syntax (as the shell's grep; no backreferences or lookaround), matched line by line under `path` in time linear in the text. `include`/`exclude` are globs on paths relative to `path`. Binary files are skipped.",
    scope: "workspaces:read",
    body: z.object({
      pattern: z.string().min(1).max(workspaceLimits.grepPatternLengthMax),
      path: WorkspacePathField.default("/"),
      include: z.array(z.string().max(1024)).max(64).optional(),
      exclude: z.array(z.string().max(1024)).max(64).optional(),
      ignoreCase: z.boolean().default(false),
      maxMatches: z.number().int().min(1).max(workspaceLimits.grepMatchesMax).optional(),
    }),
    response: GrepResult,
    run: (object, { pattern, path, ...options }, prefix) => object.grep(pattern, path, options, prefix),
    respond: (result: z.infer<typeof GrepResult>) => ({ matches: result.matches, truncated: result.truncated }),
  });
}
