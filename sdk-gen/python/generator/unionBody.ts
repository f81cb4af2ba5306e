/**
 * A JSON body that is a union of objects told apart by one property (`exec`'s body, one
 * shape per `executor`) becomes one set of keyword arguments: the tag first, then each
 * shape's own fields, then the fields all shapes share. Only the tag is required, since a
 * keyword argument cannot be required for one tag and not another; each shape-specific
 * field's description says which tags take it, and the server refuses a missing one.
 */
import type { Schema, SchemaReader } from "./schema.ts";
import type { Argument, Field, PyType } from "./types.ts";

export function unionBodyArguments(variants: Schema[], id: string, reader: SchemaReader): Argument[] {
  const shapes = variants.map((variant) => {
    if (typeof variant.$ref !== "string") throw new Error(`${id}: each shape of a union body must be a component`);
    const name = variant.$ref.split("/").at(-1) as string;
    reader.type(variant, name);
    const fields = reader.registry.models.get(name)?.fields;
    if (fields === undefined) throw new Error(`${id}: the body shape ${name} is not an object`);
    return fields;
  });
  const tagField = commonTag(shapes, id);
  const tags = shapes.map((fields) => tagOf(fields, tagField));
  const shared = (field: Field) => shapes.every((fields) => fields.some((f) => f.json === field.json));
  const order: Field[] = [];
  for (const fields of shapes)
    for (const field of fields) if (!shared(field) && !order.some((f) => f.json === field.json)) order.push(field);
  for (const field of shapes[0] ?? []) if (shared(field) && field.json !== tagField) order.push(field);
  const tagPy = shapes[0]?.find((f) => f.json === tagField)?.py ?? tagField;
  const tag: Argument = {
    py: tagPy,
    wire: tagField,
    where: "body",
    type: { kind: "literal", values: tags },
    required: true,
    nullable: false,
    description: undefined,
    keepsSlashes: false,
  };
  return [tag, ...order.map((field) => argumentOf(field, shared(field) ? null : whoTakes(field, shapes, tags)))];
}

/** The property every shape requires with one fixed value, distinct per shape. */
function commonTag(shapes: Field[][], id: string): string {
  for (const field of shapes[0] ?? []) {
    const values = shapes.map((fields) => {
      const candidate = fields.find((f) => f.json === field.json);
      return candidate?.required && candidate.type.kind === "literal" && candidate.type.values.length === 1
        ? candidate.type.values[0]
        : undefined;
    });
    if (values.every((value) => value !== undefined) && new Set(values).size === values.length) return field.json;
  }
  throw new Error(`${id}: a union body needs a property that tells its shapes apart`);
}

function tagOf(fields: Field[], tagField: string): string {
  const type = fields.find((f) => f.json === tagField)?.type as Extract<PyType, { kind: "literal" }>;
  return String(type.values[0]);
}

/** "shell: The bash script… container: The shell command line…", each tag with its own words. */
function whoTakes(field: Field, shapes: Field[][], tags: string[]): string {
  const byDescription = new Map<string, string[]>();
  shapes.forEach((fields, index) => {
    const own = fields.find((f) => f.json === field.json);
    if (own === undefined) return;
    const key = own.description ?? "";
    byDescription.set(key, [...(byDescription.get(key) ?? []), tags[index] as string]);
  });
  return [...byDescription].map(([description, takers]) => `${takers.join(", ")}: ${description}`.trim()).join(" ");
}

function argumentOf(field: Field, description: string | null): Argument {
  return {
    py: field.py,
    wire: field.json,
    where: "body",
    type: field.type,
    required: false,
    nullable: field.nullable,
    description: description ?? field.description,
    keepsSlashes: false,
  };
}
