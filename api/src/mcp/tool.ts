/** What one MCP tool is: the REST operation it stands for, and how its call becomes that operation's request. */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema, Operation } from "./operations.ts";
import type { RestInit } from "./rest.ts";

/** What a tool's `run` gets: its operation, a way to call it, and progress reporting. */
export interface ToolContext {
  operation: Operation;
  /** Sends the operation's REST request with these arguments, through the gateway app. */
  call(args: Record<string, unknown>, init?: RestInit): Promise<Response>;
  /** Set when the client asked for progress (a `progressToken`): each call is one notification. */
  progress?: (progress: number, message: string) => Promise<void>;
  signal: AbortSignal;
}

export interface Tool {
  name: string;
  /** Written for a model: what it does, and when to use it rather than another. */
  description: string;
  /** The REST operation the tool stands for: its fields, access rules and price. */
  operationId: string;
  /** Fields of the operation the tool does not offer. */
  omit?: string[];
  /** Fields the tool adds (file contents as text, a byte range): a raw body or a header in REST. */
  extra?: { properties: Record<string, JsonSchema>; required?: string[] };
  annotations: ToolAnnotations;
  /** Makes the call; without one, the arguments go to the operation as they are and its JSON answer comes back. */
  run?: (context: ToolContext, args: Record<string, unknown>) => Promise<CallToolResult>;
}

/** A tool's input schema: its operation's fields, less `omit`, plus `extra`. */
export function inputSchemaOf(tool: Tool, operation: Operation): Operation["inputSchema"] {
  const omitted = new Set(tool.omit ?? []);
  const properties = Object.fromEntries(
    Object.entries(operation.inputSchema.properties).filter(([name]) => !omitted.has(name)),
  );
  Object.assign(properties, tool.extra?.properties ?? {});
  const required = [
    ...operation.inputSchema.required.filter((name) => !omitted.has(name)),
    ...(tool.extra?.required ?? []),
  ];
  return { type: "object", properties, required };
}
