import type { App } from "../app.ts";

export const API_INFO = {
  title: "Cubicle API",
  version: "0.1.0",
  description:
    "Workspaces whose files outlive compute, and three executors over them. Authenticate with `Authorization: Bearer <api key or scoped token>`; errors are RFC 9457 problem+json with a stable `code`.",
};

/**
 * The OpenAPI 3.1 document, built from the routes themselves. Route paths use Hono's
 * `{path{[\s\S]+}}` (filePath.ts) to let a file path span segments; the document shows it as `{path}`.
 */
export function openApiDocument(app: App) {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: API_INFO,
    servers: [{ url: "http://127.0.0.1:8787", description: "npm start" }],
    tags: [
      { name: "Account", description: "Signup and the calling tenant" },
      { name: "Keys", description: "API keys and the scoped tokens minted from them" },
      { name: "Workspaces", description: "Workspaces and their labels" },
      { name: "Files", description: "File contents" },
      { name: "Filesystem", description: "Directory and path operations" },
      { name: "Execution", description: "Running commands and modules, and their durable output" },
      { name: "Usage", description: "Metered usage, the event ledger and quotas" },
      { name: "Billing", description: "Plan, spend cap and invoices" },
    ],
  });
  const paths: NonNullable<typeof document.paths> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const plain = path.replaceAll(/\{(\w+)\{[^}]*\}\}/g, "{$1}");
    // HEAD is documented on the plain path (it has no route of its own), so merge, never replace.
    paths[plain] = { ...paths[plain], ...item };
  }
  document.paths = paths;
  return document;
}

export function registerOpenApi(app: App) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API key (`cub_…`), or a scoped token (a JWT from `POST /v1/tokens`).",
  });
  let cached: ReturnType<typeof openApiDocument> | undefined;
  app.get("/openapi.json", (c) => {
    cached ??= openApiDocument(app);
    return c.json(cached);
  });
}
