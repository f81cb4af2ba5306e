/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless. Every POST carries
 * its own credential and gets a fresh server and transport (the SDK's web-standard one,
 * which runs in a Worker as it is), so any isolate can answer any request and nothing of a
 * session has to live anywhere. There is no server-initiated stream, so GET and DELETE
 * answer 405, as the transport spec allows.
 *
 * Access and price are the REST API's: the credential is checked by the same
 * `authenticate()`, and each tool call or resource read is sent through the app as the
 * REST request it stands for (rest.ts), which meets that route's scope, workspace and path
 * checks, admission and metering. A message that makes no REST call (initialize,
 * tools/list, a notification) is admitted and counted here as one plain request, by the
 * same `admit()`; a message that does is not, so it is billed once, as its REST call.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { MiddlewareHandler } from "hono";
import type { App, AppContext, AppEnv } from "../context.ts";
import { admit } from "../middleware/admit.ts";
import { authenticate } from "../middleware/authenticate.ts";
import { bodyLimit } from "../middleware/bodyLimit.ts";
import { operationsOf } from "./operations.ts";
import { mcpServer } from "./server.ts";

export const MCP_PATH = "/mcp";

/** Methods whose handlers make REST calls, each admitted and billed as that call. */
const BILLED_AS_REST = new Set(["tools/call", "resources/read", "resources/list"]);

export function registerMcp(app: App) {
  const operations = operationsOf(app);
  const admitAsRequest = admit();
  app.use(MCP_PATH, bodyLimit(), authenticate(), admitUnlessBilledAsRest(admitAsRequest));
  app.post(MCP_PATH, async (c) => {
    const message = await parsed(c);
    if (message === undefined) return parseError();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer({
      c,
      operations: operations(),
      dispatch: async (request) => app.fetch(request, c.env, c.executionCtx),
      chargeAsRequest: () => admitAsRequest(c, async () => {}) as Promise<void>,
    });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: message });
  });
  app.on(["GET", "DELETE"], MCP_PATH, () => new Response(null, { status: 405, headers: { allow: "POST" } }));
}

function admitUnlessBilledAsRest(admitAsRequest: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async function mcpAdmissionMiddleware(c, next) {
    if (c.req.method === "POST") {
      const message = await parsed(c);
      const messages = Array.isArray(message) ? message : [message];
      const billedAsRest = messages.length > 0 && messages.every((m) => BILLED_AS_REST.has(methodOf(m)));
      if (billedAsRest) return next();
    }
    return admitAsRequest(c, next);
  };
}

/** The POST's JSON-RPC message (or batch), read once and cached by Hono; undefined when it is not JSON. */
async function parsed(c: AppContext): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function methodOf(message: unknown): string {
  const method = (message as { method?: unknown } | null)?.method;
  return typeof method === "string" ? method : "";
}

function parseError(): Response {
  const body = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } };
  return Response.json(body, { status: 400 });
}
