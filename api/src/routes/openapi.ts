import type { App } from "../context.ts";

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
  addShapeStatuses(paths as unknown as Record<string, Record<string, unknown>>);
  return document;
}

type ShapedOperation = {
  responses?: Record<string, unknown>;
  requestBody?: unknown;
  parameters?: { in?: string; name?: string }[];
};

const PROBLEM = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };

/**
 * The statuses any request can get from its shape, before a route reads it, added to each
 * operation they apply to so a client's documented statuses are the whole list: 431 for
 * too many headers (any request); for a JSON body 413 past the body limit and 415 when it
 * is not sent as `application/json`; and where an `Idempotency-Key` is taken, 409 for a key
 * still in use or used with another body.
 */
function addShapeStatuses(paths: Record<string, Record<string, unknown>>) {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as ShapedOperation[]) {
      if (!operation?.responses) continue;
      const body = operation.requestBody as { content?: Record<string, unknown> } | undefined;
      const shape: [number, string][] = [[431, "Too many request headers"]];
      if (body?.content?.["application/json"]) {
        shape.push([413, "The body is larger than 1 MiB"], [415, "The body is not sent as `application/json`"]);
      }
      if (operation.parameters?.some((p) => p.in === "header" && p.name === "idempotency-key")) {
        shape.push([409, "The Idempotency-Key is in use, or was used with another body or path"]);
      }
      for (const [status, description] of shape) {
        operation.responses[status] ??= { description, content: PROBLEM };
      }
    }
  }
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
    // The server is whoever answered: the reference's "Try it out" then calls this same
    // deployment on this same port, wherever it runs. The committed document keeps `npm start`'s.
    return c.json({ ...cached, servers: [{ url: new URL(c.req.url).origin, description: "this server" }] });
  });
}
