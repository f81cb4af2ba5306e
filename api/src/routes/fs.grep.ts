import { z } from "@hono/zod-openapi";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import type { App } from "../context.ts";
import { WorkspacePathField } from "../schemas.ts";
import { registerFsOp } from "./fsOp.ts";
import { pastVersion, VersionRef } from "./versions.ts";

const GrepResult = z
  .object({
    matches: z.array(z.object({ path: z.string(), line: z.number().int(), text: z.string() })),
    truncated: z.boolean().openapi({ description: "True when `maxMatches` or the scan limit cut the search short." }),
  })
  .openapi("GrepResult");

/** A glob on a path relative to the search's `path`; an empty one names nothing and is refused. */
const Glob = z.string().min(1).max(1024).openapi({ example: "**/*.ts" });

export function registerFsGrep(app: App) {
  registerFsOp(app, {
    op: "grep",
    operationId: "grep",
    summary: "Search file contents with a regular expression",
    description:
      "RE2 regular expression syntax (as the shell's grep; no backreferences or lookaround), matched line by line under `path` in time linear in the text. `include`/`exclude` are globs on paths relative to `path`. Binary files are skipped. `at` searches a past version: a snapshot id or a revision the history window keeps (a token confined to a path prefix cannot, 403; `live` is the present).",
    scope: "workspaces:read",
    admission: "request",
    body: z.object({
      pattern: z.string().min(1).max(workspaceLimits.grepPatternLengthMax).openapi({
        description:
          "The regular expression; one that does not compile answers 400 `bad_request` with `fsCode` EINVAL (a schema cannot say which texts compile).",
        example: "TODO|FIXME",
      }),
      path: WorkspacePathField.default("/"),
      include: z.array(Glob).max(64).optional(),
      exclude: z.array(Glob).max(64).optional(),
      ignoreCase: z.boolean().default(false),
      maxMatches: z.number().int().min(1).max(workspaceLimits.grepMatchesMax).optional(),
      at: VersionRef.optional(),
    }),
    response: GrepResult,
    // A past version is searched whole-workspace: a confined caller is refused (403) before it.
    wholeWorkspace: (body) => (pastVersion(body.at) === undefined ? null : "a past version"),
    run: (object, { pattern, path, at: ref, ...options }, caller) => {
      const at = pastVersion(ref);
      return at === undefined ? object.grep(pattern, path, options, caller) : object.grepAt(at, pattern, path, options);
    },
    respond: (result: z.infer<typeof GrepResult>) => ({ matches: result.matches, truncated: result.truncated }),
  });
}
