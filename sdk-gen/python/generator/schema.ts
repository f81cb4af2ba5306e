/**
 * Turns the document's JSON Schemas into Python types, naming what needs a name: component
 * schemas keep theirs, inline objects are named after where they sit (`ChangePage.changes[]`
 * → `ChangePageChange`), and unions of objects after the value that tells them apart
 * (`BatchResultResultWrite`). Names are checked for collisions rather than silently numbered,
 * so a spec change that would rename a class fails loudly here.
 */
import { pascal, singular, snake } from "./names.ts";
import type { Field, PyType, Registry, UnionVariant } from "./types.ts";

export type Schema = Record<string, unknown>;
export type Document = { components?: { schemas?: Record<string, Schema> }; paths?: Record<string, unknown> };

const REF_PREFIX = "#/components/schemas/";

export class SchemaReader {
  readonly registry: Registry = { models: new Map(), aliases: new Map(), unions: new Map() };
  readonly #schemas: Record<string, Schema>;

  constructor(document: Document) {
    this.#schemas = document.components?.schemas ?? {};
  }

  /** Registers every component schema, in document order. */
  readComponents(): void {
    for (const name of Object.keys(this.#schemas)) this.component(name);
  }

  resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${ref}`);
    const target = this.#schemas[ref.slice(REF_PREFIX.length)];
    if (target === undefined) throw new Error(`dangling $ref ${ref}`);
    return this.resolve(target);
  }

  /** The Python type of a component schema, registering it on first use. */
  component(name: string): PyType {
    const schema = this.#schemas[name];
    if (schema === undefined) throw new Error(`no component schema ${name}`);
    if (isObjectSchema(schema)) {
      if (!this.registry.models.has(name)) this.model(name, schema);
      return { kind: "model", name };
    }
    const existing = this.registry.aliases.get(name);
    if (existing !== undefined) return { kind: "alias", name, target: existing.type };
    if (this.registry.unions.has(name)) return { kind: "union", name };
    const target = this.type(schema, name);
    // A component that is a union of shapes is that union, under its own name: no alias to itself.
    if (target.kind === "union" && target.name === name) return target;
    this.registry.aliases.set(name, { name, type: target, description: describe(schema) });
    return { kind: "alias", name, target };
  }

  /** The Python type of `schema`; `name` is what an inline object or union in it is called. */
  type(schema: Schema, name: string): PyType {
    if (typeof schema.$ref === "string") return this.component(schema.$ref.slice(REF_PREFIX.length));
    const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (variants !== undefined) return this.union(variants, name, schema);
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
    if (types.includes("null")) {
      const rest = types.filter((type) => type !== "null");
      // A nullable enum lists null among its values (JSON Schema needs it there); the
      // Optional around the Literal says it, so the Literal holds only the real values.
      const values = Array.isArray(schema.enum) ? { enum: schema.enum.filter((value) => value !== null) } : {};
      const inner = this.type({ ...schema, ...values, type: rest.length === 1 ? rest[0] : rest }, name);
      return { kind: "nullable", inner };
    }
    if (Array.isArray(schema.enum)) return { kind: "literal", values: schema.enum as string[] };
    if (isObjectSchema(schema)) {
      this.model(name, schema);
      return { kind: "model", name };
    }
    return this.scalar(schema, types.length === 1 ? types[0] : undefined, name);
  }

  private scalar(schema: Schema, type: string | undefined, name: string): PyType {
    switch (type) {
      case "string":
        return { kind: "prim", name: "str" };
      case "integer":
        return { kind: "prim", name: "int" };
      case "number":
        return { kind: "prim", name: "float" };
      case "boolean":
        return { kind: "prim", name: "bool" };
      case "array":
        return { kind: "list", item: this.type((schema.items as Schema) ?? {}, singular(name)) };
      case "object": {
        const values = schema.additionalProperties;
        const value =
          typeof values === "object" && values !== null ? this.type(values as Schema, `${name}Value`) : null;
        return { kind: "map", value: value ?? { kind: "any" } };
      }
      default:
        return { kind: "any" };
    }
  }

  /** Registers a dataclass for an object schema (allOf parts are flattened into one). */
  model(name: string, schema: Schema): void {
    const source = JSON.stringify(schema);
    const existing = this.registry.models.get(name);
    if (existing?.source === source) return;
    if (existing !== undefined) throw new Error(`two schemas want the Python class name ${name}`);
    const placeholder = { name, source, description: describe(schema), fields: [] as Field[] };
    this.registry.models.set(name, placeholder);
    const { properties, required } = this.flatten(schema);
    const seen = new Set<string>();
    for (const [json, property] of Object.entries(properties)) {
      const py = snake(json);
      if (seen.has(py) || py === "from_dict" || py === "to_dict") throw new Error(`${name}: field name ${py} clashes`);
      seen.add(py);
      const type = this.type(property, `${name}${pascal(json)}`);
      const description = describe(property) ?? describe(this.resolve(property));
      placeholder.fields.push({
        json,
        py,
        type,
        required: required.has(json),
        description,
        nullable: isNullable(type),
      });
    }
  }

  /** An object schema's own properties and required list, with allOf parts merged in order. */
  flatten(schema: Schema): { properties: Record<string, Schema>; required: Set<string> } {
    const properties: Record<string, Schema> = {};
    const required = new Set<string>();
    const parts = (schema.allOf as Schema[] | undefined)?.map((part) => this.resolve(part)) ?? [schema];
    for (const part of parts) {
      const flat = part.allOf === undefined ? part : this.flatten(part);
      Object.assign(properties, flat.properties ?? {});
      for (const key of (flat.required as Iterable<string> | undefined) ?? []) required.add(key);
    }
    return { properties, required };
  }

  private union(variants: Schema[], name: string, schema: Schema): PyType {
    const present = variants.filter((variant) => variant.type !== "null");
    const nullable = present.length < variants.length;
    if (present.length === 1) {
      const only = this.type(present[0] as Schema, name);
      return nullable ? { kind: "nullable", inner: only } : only;
    }
    if (this.registry.unions.has(name)) throw new Error(`two unions want the Python name ${name}`);
    const discriminator = this.discriminator(present);
    const objects = present.filter((variant) => isObjectSchema(this.resolve(variant))).length;
    const members: UnionVariant[] = present.map((variant, index) => {
      const label = discriminator === null ? `Object${objects > 1 ? index + 1 : ""}` : "";
      return this.variant(variant, name, discriminator, label);
    });
    // The last variant is the fallback: a shape this version does not know parses as it.
    members.sort((a, b) => Number(a.test === null) - Number(b.test === null));
    const last = members.at(-1) as UnionVariant;
    if (last.type.kind === "model") last.test = null;
    this.registry.unions.set(name, { name, variants: members, description: describe(schema) });
    const type: PyType = { kind: "union", name };
    return nullable ? { kind: "nullable", inner: type } : type;
  }

  private variant(variant: Schema, name: string, discriminator: string | null, label: string): UnionVariant {
    const resolved = this.resolve(variant);
    if (!isObjectSchema(resolved)) {
      const type = this.type(variant, name);
      return { type, test: scalarTest(type) };
    }
    if (discriminator === null) {
      return { type: this.type(variant, `${name}${label}`), test: "is_object(value)" };
    }
    const values = this.flatten(resolved).properties[discriminator]?.enum as string[] | undefined;
    const tag = values?.[0];
    if (tag === undefined) throw new Error(`${name}: a variant lacks the discriminator ${discriminator}`);
    const type = this.type(variant, `${name}${pascal(tag)}`);
    return { type, test: `is_object(value) and value.get(${JSON.stringify(discriminator)}) == ${JSON.stringify(tag)}` };
  }

  /** A property every object variant requires with one fixed value: `op` in the batch unions. */
  private discriminator(variants: Schema[]): string | null {
    const objects = variants.map((variant) => this.resolve(variant)).filter(isObjectSchema);
    if (objects.length < 2) return null;
    const flats = objects.map((object) => this.flatten(object));
    const first = flats[0] as { properties: Record<string, Schema>; required: Set<string> };
    for (const key of Object.keys(first.properties)) {
      const tags = flats.map(({ properties, required }) => {
        const values = properties[key]?.enum;
        return required.has(key) && Array.isArray(values) && values.length === 1 ? values[0] : undefined;
      });
      if (tags.every((tag) => typeof tag === "string") && new Set(tags).size === tags.length) return key;
    }
    return null;
  }
}

export function isObjectSchema(schema: Schema): boolean {
  if (schema.allOf !== undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("object") && schema.properties !== undefined;
}

function isNullable(type: PyType): boolean {
  return type.kind === "nullable" || type.kind === "any";
}

function describe(schema: Schema): string | undefined {
  return typeof schema.description === "string" ? schema.description : undefined;
}

function scalarTest(type: PyType): string {
  const inner = type.kind === "alias" ? type.target : type;
  if (inner.kind === "prim" && inner.name === "bool") return "isinstance(value, bool)";
  if (inner.kind === "prim" && inner.name === "int") return "isinstance(value, int) and not isinstance(value, bool)";
  if (inner.kind === "prim" && inner.name === "float") return "isinstance(value, (int, float))";
  if (inner.kind === "prim" || inner.kind === "literal") return "isinstance(value, str)";
  if (inner.kind === "list") return "isinstance(value, list)";
  if (inner.kind === "map") return "is_object(value)";
  return "True";
}
