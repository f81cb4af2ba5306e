/**
 * The MCP server for one HTTP request (the endpoint is stateless, route.ts). It uses the
 * SDK's low-level `Server` rather than `McpServer`: tools here are declared by JSON Schema
 * taken from the OpenAPI document, and their arguments are validated by the REST route they
 * stand for, while `McpServer` wants zod schemas and validates by itself first.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { AppContext } from "../context.ts";
import { ApiError, problemResponse } from "../errors.ts";
import { API_INFO } from "../routes/openapi.ts";
import type { Operation } from "./operations.ts";
import { listResources, parseResourceUri, RESOURCE_TEMPLATE, readResource } from "./resources.ts";
import { type Dispatch, type RestInit, restRequest } from "./rest.ts";
import { errorResult, invalidArguments, resultOf } from "./results.ts";
import { inputSchemaOf, type Tool } from "./tool.ts";
import { TOOLS } from "./tools.ts";

const INSTRUCTIONS =
  "Cubicle gives you a computer: workspaces whose files persist, and commands over them. Create a workspace (or list yours), then read, write and search its files and run commands with `exec`; every executor sees the same files at /workspace.";

export interface McpServerOptions {
  c: AppContext;
  operations: Map<string, Operation>;
  /** Sends a request through the gateway app, as if it had come over HTTP. */
  dispatch: Dispatch;
  /** Admits (and counts) the MCP call as a plain request when it makes no REST call of its own; throws ApiError when refused. */
  chargeAsRequest: () => Promise<void>;
}

/**
 * The server validates JSON only for elicitation, which this one never does. The SDK's
 * default (Ajv) compiles validators with `new Function`, which workerd refuses.
 */
const noValidation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "this server validates no client data" }),
};

export function mcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: "cubicle", title: API_INFO.title, version: API_INFO.version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: noValidation },
  );
  const operationOf = (id: string): Operation => {
    const operation = options.operations.get(id);
    if (!operation) throw new Error(`no REST operation ${id} in the OpenAPI document`);
    return operation;
  };
  const callOperation = async (id: string, args: Record<string, unknown>, init?: RestInit) => {
    let request: Request;
    try {
      request = restRequest(options.c, operationOf(id), args, init);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Refused before any REST call: still a request, admitted and counted.
      const refusal = await options.chargeAsRequest().then(
        () => error,
        (admission: unknown) => {
          if (admission instanceof ApiError) return admission;
          throw admission;
        },
      );
      return problemResponse(options.c, refusal);
    }
    return options.dispatch(request);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: inputSchemaOf(tool, operationOf(tool.operationId)),
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    const args = request.params.arguments ?? {};
    const missing = tool && inputSchemaOf(tool, operationOf(tool.operationId)).required.filter((n) => !(n in args));
    if (!tool || missing?.length) {
      try {
        await options.chargeAsRequest();
      } catch (error) {
        return errorResult(error);
      }
      if (!tool) return invalidArguments(`no tool named ${request.params.name}; tools/list names them`);
      return invalidArguments(`missing required argument${missing?.length === 1 ? "" : "s"}: ${missing?.join(", ")}`);
    }
    const token = request.params._meta?.progressToken;
    const operation = operationOf(tool.operationId);
    const context = {
      operation,
      call: (callArgs: Record<string, unknown>, init?: RestInit) => callOperation(tool.operationId, callArgs, init),
      signal: extra.signal,
      ...(token === undefined
        ? {}
        : {
            progress: (progress: number, message: string) =>
              extra.sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress, message },
              }),
          }),
    };
    return runTool(tool, context, args);
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [RESOURCE_TEMPLATE],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async (request) =>
    listResources(callOperation, request.params?.cursor, options.c.get("principal").pathPrefix),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    // A URI that names no file makes no REST call; it is still a request, admitted and counted.
    if (!parseResourceUri(request.params.uri)) await options.chargeAsRequest();
    return readResource(callOperation, request.params.uri);
  });
  return server;
}

async function runTool(
  tool: Tool,
  context: Parameters<NonNullable<Tool["run"]>>[0],
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  if (tool.run) return tool.run(context, args);
  return resultOf(await context.call(args));
}
