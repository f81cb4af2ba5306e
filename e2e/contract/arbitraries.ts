/**
 * fast-check arbitraries derived from JSON Schema: `validValue` aims inside a schema, and
 * `invalidValue` (invalidValues.ts) just outside it. Neither is trusted to hit its aim:
 * the fuzzer classifies every request it sends with a JSON Schema validator
 * (requests.ts, schemaProblems), so a generator that misses only changes which checks a
 * case gets, never what they conclude.
 *
 * Sizes are kept small (strings to 40 characters, arrays to 6 items) except at bounds,
 * where a value exactly at `maxLength` or `maxItems` is drawn on purpose.
 */
import fc from "fast-check";
import { type JsonSchema, type Spec, schemaFor } from "./spec.ts";

/**
 * Extra values for a field, by name, mixed in with what its schema alone would give; or,
 * as `{ only }`, in place of them, where the schema's own values cost too much to send.
 */
export type Hints = (name: string) => fc.Arbitrary<unknown> | { only: fc.Arbitrary<unknown> } | undefined;

/**
 * Characters strings are made of: mostly letters, with the ones that break things mixed
 * in (separators, dots, quotes, control characters, non-ASCII and an emoji's surrogate pair).
 */
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_-") },
  { weight: 2, arbitrary: fc.constantFrom(..."/.:*?[]{}()!@#$%^&+=|\\'\"`~<>, ") },
  { weight: 1, arbitrary: fc.constantFrom("\u0000", "\n", "\r", "\t", "\u001f", "\u007f") },
  { weight: 1, arbitrary: fc.constantFrom("é", "ß", "中", "😀", "\u200b", "\u0130") },
);

export const text = (minLength = 0, maxLength = 40) => fc.string({ unit, minLength, maxLength });

export const anyJson = fc.jsonValue({ maxDepth: 2 });

/** The string bounds of a schema, with the upper one capped for everyday draws. */
export function lengths(schema: JsonSchema): { min: number; max: number; cap: number } {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  return { min, max, cap: Math.max(min, Math.min(max, min + 40)) };
}

export const regexOf = (schema: JsonSchema) => (typeof schema.pattern === "string" ? new RegExp(schema.pattern) : null);

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const { min, max, cap } = lengths(schema);
  const regex = regexOf(schema);
  const fits = (s: string) => s.length >= min && s.length <= max && (regex === null || regex.test(s));
  const options: fc.Arbitrary<string>[] = [];
  if (schema.format === "date-time") options.push(dateTime());
  if (schema.format === "email") options.push(fc.emailAddress());
  if (regex) {
    try {
      options.push(fc.stringMatching(regex, { size: "small" }));
    } catch {
      // A pattern fast-check cannot generate from (a lookahead): random text, filtered below.
    }
  }
  if (options.length === 0 || !regex) options.push(text(min, cap));
  // A value exactly at the upper bound, where off-by-one refusals live.
  if (Number.isFinite(max) && max > 0 && max <= 1_000_000 && !regex) {
    options.push(fc.constantFrom("a", "é", "/").map((c) => c.repeat(max)));
  }
  return fc.oneof(...options).filter(fits);
}

function dateTime(): fc.Arbitrary<string> {
  const instant = fc.date({
    min: new Date("2000-01-01T00:00:00Z"),
    max: new Date("2100-01-01T00:00:00Z"),
    noInvalidDate: true,
  });
  return fc.oneof(
    instant.map((d) => d.toISOString()),
    instant.map((d) => d.toISOString().replace(/\.\d+Z$/, "Z")),
    instant.map((d) => d.toISOString().replace("Z", "+05:30")),
    // Recent instants, on both sides of now: the ones a rule about "the future" reads.
    fc
      .integer({ min: -7 * 86_400_000, max: 7 * 86_400_000 })
      .map((offsetMs) => new Date(Date.now() + offsetMs).toISOString()),
  );
}

function validNumber(schema: JsonSchema): fc.Arbitrary<number> {
  const integer = schema.type === "integer";
  const min = typeof schema.minimum === "number" ? schema.minimum : integer ? -(2 ** 31) : -1e9;
  const max = typeof schema.maximum === "number" ? schema.maximum : integer ? 2 ** 31 - 1 : 1e9;
  if (!integer) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  if (min >= -(2 ** 31) && max <= 2 ** 31 - 1) return fc.integer({ min, max });
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

export function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === "string" ? [schema.type] : [];
}

export function mergeAllOf(spec: Spec, schema: JsonSchema): JsonSchema {
  const { allOf, ...merged } = schema;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const raw of allOf as JsonSchema[]) {
    const part = schemaFor(spec, raw);
    Object.assign(merged, part);
    Object.assign(properties, part.properties);
    required.push(...((part.required as string[]) ?? []));
  }
  return { ...merged, properties, required };
}

export function validValue(spec: Spec, raw: JsonSchema, hints: Hints, name = ""): fc.Arbitrary<unknown> {
  const schema = raw.allOf ? mergeAllOf(spec, schemaFor(spec, raw)) : schemaFor(spec, raw);
  const hinted = hints(name);
  if (hinted && "only" in hinted) return hinted.only;
  const own = validFromSchema(spec, schema, hints);
  return hinted ? fc.oneof({ weight: 1, arbitrary: own }, { weight: 2, arbitrary: hinted }) : own;
}

function validFromSchema(spec: Spec, schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (union) return fc.oneof(...union.map((branch) => validValue(spec, branch, hints)));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validFromSchema(spec, { ...schema, type }, hints)));
  switch (types[0]) {
    case "string":
      return schema.format === "binary" ? fc.uint8Array({ maxLength: 64 }) : validString(schema);
    case "integer":
    case "number":
      return validNumber(schema);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return validArray(spec, schema, hints);
    case "object":
      return validObject(spec, schema, hints);
    default:
      return anyJson;
  }
}

function validArray(spec: Spec, schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown[]> {
  const item = validValue(spec, (schema.items as JsonSchema) ?? {}, hints);
  const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : 6;
  const maxLength = Math.max(minLength, Math.min(maxItems, 6));
  const everyday = fc.array(item, { minLength, maxLength });
  // Now and then exactly `maxItems`, when that is a size worth sending.
  return maxItems > 6 && maxItems <= 100
    ? fc.oneof(
        { weight: 9, arbitrary: everyday },
        { weight: 1, arbitrary: fc.array(item, { minLength: maxItems, maxLength: maxItems }) },
      )
    : everyday;
}

export function validObject(spec: Spec, schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && extra && typeof extra === "object") {
    const names = schema.propertyNames ? validString(schemaFor(spec, schema.propertyNames as JsonSchema)) : text(1, 12);
    const maxKeys = typeof schema.maxProperties === "number" ? Math.min(schema.maxProperties, 5) : 5;
    return fc.dictionary(names, validValue(spec, extra as JsonSchema, hints), { maxKeys });
  }
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validValue(spec, value, hints, key)])),
    { requiredKeys: required },
  );
  if (extra === false) return record;
  // JSON Schema allows properties it does not name unless it says otherwise; so must the server.
  return fc
    .tuple(
      record,
      fc.option(fc.dictionary(fc.constantFrom("zExtra", "unknownField"), anyJson, { maxKeys: 1 }), { freq: 8 }),
    )
    .map(([value, extras]) => ({ ...(extras ?? {}), ...value }));
}
