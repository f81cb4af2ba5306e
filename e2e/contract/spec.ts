/**
 * The OpenAPI document as the contract fuzzer reads it: every operation with its
 * parameters, request body and documented responses, schemas left as JSON Schema (refs
 * into `components.schemas` intact; schemaFor() resolves them on demand). Nothing here
 * knows a route: what the fuzzer sends and expects comes from openapi/openapi.json alone.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** A JSON Schema object as the document spells it (3.1: JSON Schema 2020-12 plus `example`, `x-…`). */
export type JsonSchema = { [keyword: string]: unknown };

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/v1/workspaces/{workspaceId}/files/{path}`. */
  path: string;
  /** Whether the operation takes a credential (`security` names one). */
  authenticated: boolean;
  parameters: Parameter[];
  body: { contentType: string; required: boolean; schema: JsonSchema } | null;
  /** Documented responses: status → media type → schema (no media types for bodiless answers). */
  responses: Map<number, Map<string, JsonSchema | null>>;
}

export interface Spec {
  document: { components: { schemas: Record<string, JsonSchema> } };
  operations: Operation[];
}

/** The document's operations and parameters as JSON, before operationOf() reads them. */
interface RawContent {
  content?: Record<string, { schema?: JsonSchema }>;
}
interface RawOperation {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: Parameter["in"]; required?: boolean; schema?: JsonSchema }[];
  requestBody?: RawContent & { required?: boolean };
  responses?: Record<string, RawContent>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const METHODS = ["get", "put", "post", "delete", "patch", "head"];

export function loadSpec(path = join(root, "openapi/openapi.json")): Spec {
  const document = JSON.parse(readFileSync(path, "utf8"));
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<Record<string, RawOperation | undefined>>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations.push(operationOf(method, template, op));
    }
  }
  return { document, operations };
}

function operationOf(method: string, path: string, op: RawOperation): Operation {
  const responses = new Map<number, Map<string, JsonSchema | null>>();
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const media = new Map<string, JsonSchema | null>();
    for (const [type, content] of Object.entries(response.content ?? {})) media.set(type, content.schema ?? null);
    responses.set(Number(status), media);
  }
  const [contentType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  return {
    operationId: op.operationId,
    method: method.toUpperCase(),
    path,
    authenticated: Array.isArray(op.security) && op.security.length > 0,
    parameters: (op.parameters ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required === true,
      schema: p.schema ?? {},
    })),
    body: contentType
      ? { contentType, required: op.requestBody?.required === true, schema: content?.schema ?? {} }
      : null,
    responses,
  };
}

/** A schema with its `$ref` (into `components.schemas`) followed, as often as it takes. */
export function schemaFor(spec: Spec, schema: JsonSchema): JsonSchema {
  let current = schema;
  while (typeof current.$ref === "string") {
    const name = current.$ref.replace("#/components/schemas/", "");
    const target = spec.document.components.schemas[name];
    if (!target) throw new Error(`unresolved $ref ${current.$ref}`);
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}
