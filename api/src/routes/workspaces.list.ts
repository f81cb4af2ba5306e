import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, PageQuery, page, Workspace } from "../schemas.ts";

const route = createRoute({
  method: "get",
  path: "/v1/workspaces",
  operationId: "listWorkspaces",
  tags: ["Workspaces"],
  summary: "List workspaces, oldest first",
  description:
    "Filter by labels with `?metadata.<key>=<value>` (repeatable; all must match). `<key>` follows the metadata key rules (1 to 64 letters, digits, `_`, `.` and `-`); a `metadata.` parameter with any other key is refused (400 `validation_failed`).",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { query: PageQuery.passthrough() },
  responses: {
    200: {
      description: "A page of workspaces",
      content: { "application/json": { schema: page(Workspace, "WorkspacePage") } },
    },
    ...errorResponses(),
  },
});

export function registerWorkspacesList(app: App) {
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const metadata: Record<string, string> = {};
    for (const [name, value] of Object.entries(c.req.query())) {
      if (!name.startsWith("metadata.")) continue;
      const key = name.slice("metadata.".length);
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key)) {
        throw new ApiError("validation_failed", `invalid metadata filter \`${name}\``, {
          errors: [{ in: "query", pointer: `/${name}`, detail: "metadata keys are letters, digits, `_`, `.` and `-`" }],
        });
      }
      metadata[key] = value;
    }
    const principal = c.get("principal");
    const result = await c.var.services.workspaces.list(principal.tenantId, {
      limit,
      cursor,
      metadata,
      ids: principal.workspaceIds,
    });
    return c.json(result, 200);
  });
}
