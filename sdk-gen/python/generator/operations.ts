/**
 * Reads each operation of the document into an `Operation`: its Python name, its arguments
 * (path, query and header parameters, the JSON body's fields or a raw `content`), whether a
 * retry is safe, and what it returns. emitOperations (operationsEmit.ts) writes them out.
 */
import { pascal, snake } from "./names.ts";
import type { Schema, SchemaReader } from "./schema.ts";
import { isObjectSchema } from "./schema.ts";
import type { Argument, PyType } from "./types.ts";
import { unionBodyArguments } from "./unionBody.ts";

export type Returns = { kind: "json"; type: PyType } | { kind: "bytes" } | { kind: "headers" } | { kind: "none" };

export interface Operation {
  id: string;
  py: string;
  method: string;
  path: string;
  summary: string | undefined;
  description: string | undefined;
  args: Argument[];
  returns: Returns;
  /** "always", "never", or "unless <arg>" (a PUT that appends is not idempotent). */
  retrySafe: { kind: "always" } | { kind: "never" } | { kind: "unlessSet"; arg: string };
  idempotencyKey: boolean;
}

const METHODS = ["get", "head", "post", "put", "patch", "delete"];
const IDEMPOTENCY_HEADER = "idempotency-key";

export function readOperations(document: { paths?: Record<string, unknown> }, reader: SchemaReader): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Schema>)[method];
      if (operation !== undefined) operations.push(readOperation(path, method, operation, reader));
    }
  }
  return operations;
}

function readOperation(path: string, method: string, operation: Schema, reader: SchemaReader): Operation {
  const id = operation.operationId as string;
  if (typeof id !== "string") throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
  const parameters = ((operation.parameters as Schema[] | undefined) ?? []).map((parameter) =>
    readParameter(reader.resolve(parameter), id, reader),
  );
  const body = readBody(operation.requestBody as Schema | undefined, id, reader);
  const args = [...parameters, ...body];
  const seen = new Set<string>();
  for (const arg of args) {
    if (seen.has(arg.py) || arg.py === "transport" || arg.py === "timeout") {
      throw new Error(`${id}: argument ${arg.py} appears twice; the Python SDK needs distinct names`);
    }
    seen.add(arg.py);
  }
  const idempotencyKey = parameters.some((arg) => arg.where === "header" && arg.wire === IDEMPOTENCY_HEADER);
  return {
    id,
    py: snake(id),
    method: method.toUpperCase(),
    path,
    summary: operation.summary as string | undefined,
    description: operation.description as string | undefined,
    args,
    returns: readReturns(operation.responses as Record<string, Schema>, id, method, reader),
    retrySafe: retrySafety(method, args, idempotencyKey),
    idempotencyKey,
  };
}

/**
 * GET, HEAD, PUT and DELETE are idempotent by HTTP's definition, and so is a POST that takes
 * an Idempotency-Key (the SDK always sends one). A PUT with `append` adds bytes each time.
 */
function retrySafety(method: string, args: Argument[], idempotencyKey: boolean): Operation["retrySafe"] {
  if (method === "put") {
    const append = args.find((arg) => arg.where === "query" && arg.wire === "append");
    return append === undefined ? { kind: "always" } : { kind: "unlessSet", arg: append.py };
  }
  if (["get", "head", "delete"].includes(method) || idempotencyKey) return { kind: "always" };
  return { kind: "never" };
}

function readParameter(parameter: Schema, id: string, reader: SchemaReader): Argument {
  const wire = parameter.name as string;
  const where = parameter.in as Argument["where"];
  const schema = (parameter.schema as Schema | undefined) ?? {};
  const description = (parameter.description ?? schema.description) as string | undefined;
  const type = reader.type(flagAsBoolean(schema), `${pascal(id)}${pascal(wire)}`);
  return {
    py: snake(wire),
    wire,
    where,
    type,
    required: parameter.required === true,
    nullable: false,
    description,
    keepsSlashes: where === "path" && /`\/` separators are allowed/.test(description ?? ""),
  };
}

/** A query flag spelled as the strings "true"/"false" is a bool in Python. */
function flagAsBoolean(schema: Schema): Schema {
  const values = schema.enum;
  const flag = Array.isArray(values) && values.length === 2 && values.includes("true") && values.includes("false");
  return flag ? { type: "boolean", description: schema.description } : schema;
}

function readBody(body: Schema | undefined, id: string, reader: SchemaReader): Argument[] {
  const content = body?.content as Record<string, Schema> | undefined;
  if (content === undefined) return [];
  const json = content["application/json"]?.schema as Schema | undefined;
  if (json === undefined) {
    const type: PyType = { kind: "prim", name: "bytes" };
    return [{ py: "content", wire: "", where: "content", type, ...RAW }];
  }
  const resolved = reader.resolve(json);
  const variants = (resolved.oneOf ?? resolved.anyOf) as Schema[] | undefined;
  if (variants !== undefined) return unionBodyArguments(variants, id, reader);
  if (!isObjectSchema(resolved)) throw new Error(`${id}: a JSON body that is not an object is not supported`);
  // Named like the response models so users can build the body themselves, too.
  const model = typeof json.$ref === "string" ? null : `${pascal(id)}Request`;
  if (model !== null) reader.type(json, model);
  const fields = reader.registry.models.get(model ?? (json.$ref as string).split("/").at(-1) ?? "")?.fields ?? [];
  return fields.map((field) => ({
    py: field.py,
    wire: field.json,
    where: "body",
    type: field.type,
    required: field.required,
    nullable: field.nullable,
    description: field.description,
    keepsSlashes: false,
  }));
}

const RAW = { required: true, nullable: false, description: "The raw request body.", keepsSlashes: false };

function readReturns(responses: Record<string, Schema>, id: string, method: string, reader: SchemaReader): Returns {
  const success = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
  const shapes = success.map(([, response]) => returnsOf(response, id, method, reader));
  const unique = [...new Set(shapes.map((shape) => JSON.stringify(shape)))];
  if (unique.length > 1 && !(unique.length === 2 && shapes.some((shape) => shape.kind === "none"))) {
    throw new Error(`${id}: its 2xx responses have different shapes; the Python SDK needs one`);
  }
  return shapes.find((shape) => shape.kind !== "none") ?? shapes[0] ?? { kind: "none" };
}

function returnsOf(response: Schema, id: string, method: string, reader: SchemaReader): Returns {
  const content = response.content as Record<string, Schema> | undefined;
  if (content === undefined) return method === "head" ? { kind: "headers" } : { kind: "none" };
  const json = content["application/json"]?.schema as Schema | undefined;
  if (json === undefined) return { kind: "bytes" };
  return { kind: "json", type: reader.type(json, `${pascal(id)}Response`) };
}
