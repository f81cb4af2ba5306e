/**
 * REST operations as MCP tools see them: each tool's input schema is built from the
 * operation's own parameters and JSON body in the OpenAPI document, which the routes'
 * zod schemas generate (routes/openapi.ts). A tool and its REST call therefore take the
 * same fields under the same rules, and the REST route validates them with the very zod
 * schema the tool's JSON Schema came from.
 */
import type { App } from "../context.ts";
import { openApiDocument } from "../routes/openapi.ts";

export type JsonSchema = Record<string, unknown>;

type Placement = "path" | "query" | "body";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface RawOperation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** One REST operation: how to call it, and its fields as one flat JSON Schema object. */
export interface Operation {
  method: string;
  /** The document's path, with `{name}` for each path parameter. */
  path: string;
  inputSchema: { type: "object"; properties: Record<string, JsonSchema>; required: string[] };
  /** Where each field goes in the REST request. */
  placement: Record<string, Placement>;
}

type Document = ReturnType<typeof openApiDocument>;

/** Every operation of the app's document, by operationId; built once per isolate, on first use. */
export function operationsOf(app: App): () => Map<string, Operation> {
  let built: Map<string, Operation> | undefined;
  return () => {
    built ??= buildOperations(openApiDocument(app));
    return built;
  };
}

function buildOperations(document: Document): Map<string, Operation> {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, raw] of Object.entries(item as Record<string, RawOperation>)) {
      if (!raw?.operationId) continue;
      operations.set(raw.operationId, toOperation(method.toUpperCase(), path, raw, components));
    }
  }
  return operations;
}

function toOperation(method: string, path: string, raw: RawOperation, components: Record<string, JsonSchema>) {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const placement: Record<string, Placement> = {};
  // Headers (Idempotency-Key, Range, preconditions) are the transport's business, not a tool's.
  for (const parameter of raw.parameters ?? []) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    const schema = inline(parameter.schema ?? {}, components);
    const description = parameter.description ?? schema.description;
    properties[parameter.name] = description === undefined ? schema : { ...schema, description };
    placement[parameter.name] = parameter.in;
    if (parameter.required) required.push(parameter.name);
  }
  const body = raw.requestBody?.content?.["application/json"]?.schema;
  if (body) {
    const flat = flatten(inline(body, components));
    for (const [name, schema] of Object.entries(flat.properties)) {
      properties[name] = schema;
      placement[name] = "body";
    }
    required.push(...flat.required);
  }
  return { method, path, inputSchema: { type: "object" as const, properties, required }, placement };
}

/** `schema` with every `#/components/schemas/…` reference replaced by its target (the document has no cycles). */
function inline(schema: unknown, components: Record<string, JsonSchema>): JsonSchema {
  const walk = (value: unknown, seen: string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, seen));
    if (value === null || typeof value !== "object") return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const name = ref.slice("#/components/schemas/".length);
      if (seen.includes(name)) throw new Error(`the OpenAPI document's ${name} refers to itself`);
      return walk(components[name], [...seen, name]);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, seen)]));
  };
  return walk(schema, []) as JsonSchema;
}

/**
 * One object out of a body: itself, or for a discriminated union (exec's body, one shape
 * per executor) the union of its variants' fields, with the discriminator as an enum and
 * each field that only some variants take saying which. Model APIs refuse a tool schema
 * whose top level is `oneOf`; the REST route still checks the exact variant.
 */
function flatten(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  const variants = schema.oneOf as JsonSchema[] | undefined;
  if (!variants) {
    return {
      properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
      required: (schema.required ?? []) as string[],
    };
  }
  const key = (schema.discriminator as { propertyName: string }).propertyName;
  const tags = variants.map((v) => String(((v.properties as Record<string, JsonSchema>)[key]?.enum as string[])?.[0]));
  const properties: Record<string, JsonSchema> = { [key]: { type: "string", enum: tags } };
  const takenBy = new Map<string, string[]>();
  variants.forEach((variant, i) => {
    for (const [name, field] of Object.entries(variant.properties as Record<string, JsonSchema>)) {
      if (name === key) continue;
      properties[name] ??= field;
      takenBy.set(name, [...(takenBy.get(name) ?? []), tags[i] as string]);
    }
  });
  for (const [name, by] of takenBy) {
    if (by.length === variants.length) continue;
    const field = properties[name] as JsonSchema;
    const only = `Only with ${key} ${by.map((t) => `\`${t}\``).join(" or ")}.`;
    properties[name] = { ...field, description: field.description ? `${field.description} ${only}` : only };
  }
  const required = [key, ...[...takenBy.keys()].filter((name) => variants.every((v) => requires(v, name)))];
  return { properties, required };
}

function requires(variant: JsonSchema, name: string): boolean {
  return ((variant.required ?? []) as string[]).includes(name);
}
