import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, PageQuery, page } from "../schemas.ts";
import { ArtifactSummary, baseUrlOf, reachOf } from "./artifactsShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/artifacts",
  operationId: "listArtifacts",
  tags: ["Artifacts"],
  summary: "List artifacts, newest first",
  description:
    "Summaries without file lists (`GET /v1/artifacts/{artifactId}` has them). A credential restricted to some workspaces or a path prefix lists only artifacts published from inside its reach.",
  security: [{ bearer: [] }],
  middleware: [requireScope("workspaces:read"), admits("request")] as const,
  request: { query: PageQuery },
  responses: {
    200: {
      description: "A page of artifacts",
      content: { "application/json": { schema: page(ArtifactSummary, "ArtifactPage") } },
    },
    ...errorResponses(),
  },
});

export function registerArtifactsList(app: App) {
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const listed = await c.var.services.artifacts.list(c.get("principal").tenantId, reachOf(c), limit, cursor);
    const base = baseUrlOf(c);
    const data = listed.data.map((a) => {
      const url = `${base}/v1/artifacts/${a.id}`;
      return { ...a, url, downloadUrl: `${url}/download` };
    });
    return c.json({ data, nextCursor: listed.nextCursor }, 200);
  });
}
