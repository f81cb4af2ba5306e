/**
 * Values just outside a JSON Schema, for the fuzzer's broken draws: a wrong type, a bound
 * crossed by one, a required property dropped, a pattern broken, a property the schema
 * closes out. Whether each really is invalid is decided by the validator, not here.
 */
import fc from "fast-check";
import {
  anyJson,
  type Hints,
  lengths,
  mergeAllOf,
  regexOf,
  text,
  typesOf,
  validObject,
  validValue,
} from "./arbitraries.ts";
import { type JsonSchema, type Spec, schemaFor } from "./spec.ts";

/** A value of some other JSON type than the schema's. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = new Set(typesOf(schema));
  const options: fc.Arbitrary<unknown>[] = [];
  if (!types.has("string")) options.push(text(0, 8));
  if (!types.has("integer") && !types.has("number")) options.push(fc.integer());
  if (!types.has("boolean")) options.push(fc.boolean());
  if (!types.has("null")) options.push(fc.constant(null));
  if (!types.has("array")) options.push(fc.array(fc.integer(), { maxLength: 2 }));
  if (!types.has("object")) options.push(fc.constant({}));
  return fc.oneof(...options);
}

export function invalidValue(spec: Spec, raw: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  const schema = raw.allOf ? mergeAllOf(spec, schemaFor(spec, raw)) : schemaFor(spec, raw);
  const options: fc.Arbitrary<unknown>[] = [];
  if (typesOf(schema).length > 0 || schema.oneOf || schema.anyOf) options.push(wrongType(schema));
  if (Array.isArray(schema.enum)) options.push(text(1, 10).filter((s) => !(schema.enum as unknown[]).includes(s)));
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (union) options.push(...union.map((branch) => invalidValue(spec, branch, hints)));
  for (const type of typesOf(schema)) options.push(...invalidOfType(spec, schema, type, hints));
  return options.length > 0 ? fc.oneof(...options) : wrongType({});
}

function invalidOfType(spec: Spec, schema: JsonSchema, type: string, hints: Hints): fc.Arbitrary<unknown>[] {
  switch (type) {
    case "string":
      return invalidStrings(schema);
    case "integer":
    case "number":
      return invalidNumbers(schema);
    case "array":
      return invalidArrays(spec, schema, hints);
    case "object":
      return invalidObjects(spec, schema, hints);
    default:
      return [];
  }
}

function invalidStrings(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const { min, max } = lengths(schema);
  const regex = regexOf(schema);
  const options: fc.Arbitrary<unknown>[] = [];
  if (min > 0) options.push(text(0, min - 1));
  if (Number.isFinite(max) && max < 1_000_000)
    options.push(fc.constantFrom("a", "é", "/").map((c) => c.repeat(max + 1)));
  if (regex) options.push(text(0, 20).filter((s) => !regex.test(s)));
  if (schema.format === "date-time") {
    options.push(
      fc.constantFrom("yesterday", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01", "2026-01-01T00:00:00"),
    );
  }
  if (schema.format === "email") options.push(fc.constantFrom("no-at-sign", "a@b", "@example.com", "a b@example.com"));
  return options;
}

function invalidNumbers(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const options: fc.Arbitrary<unknown>[] = [];
  if (typeof schema.minimum === "number") options.push(fc.constantFrom(schema.minimum - 1, -1e12));
  if (typeof schema.maximum === "number") options.push(fc.constantFrom(schema.maximum + 1, 2 ** 60));
  if (schema.type === "integer") options.push(fc.constantFrom(0.5, 1.25));
  return options;
}

function invalidArrays(spec: Spec, schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown>[] {
  const items = (schema.items as JsonSchema) ?? {};
  const options: fc.Arbitrary<unknown>[] = [];
  if (typeof schema.minItems === "number" && schema.minItems > 0) options.push(fc.constant([]));
  if (typeof schema.maxItems === "number" && schema.maxItems <= 2_000) {
    const count = schema.maxItems + 1;
    options.push(validValue(spec, items, hints).map((item) => Array.from({ length: count }, () => item)));
  }
  options.push(
    fc
      .tuple(fc.array(validValue(spec, items, hints), { maxLength: 2 }), invalidValue(spec, items, hints))
      .map(([ok, bad]) => [...ok, bad]),
  );
  return options;
}

function invalidObjects(spec: Spec, schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown>[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const valid = validObject(spec, schema, hints);
  const options: fc.Arbitrary<unknown>[] = [];
  if (required.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, drop]) => {
        const { [drop]: _dropped, ...rest } = value;
        return rest;
      }),
    );
  }
  const names = Object.keys(properties);
  if (names.length > 0) {
    const broken = fc
      .constantFrom(...names)
      .chain((key) => fc.tuple(fc.constant(key), invalidValue(spec, properties[key] as JsonSchema, hints)));
    options.push(fc.tuple(valid, broken).map(([value, [key, bad]]) => ({ ...value, [key]: bad })));
  }
  if (schema.additionalProperties === false) options.push(valid.map((value) => ({ ...value, notAField: 1 })));
  const extra = schema.additionalProperties;
  if (names.length === 0 && extra && typeof extra === "object") {
    if (schema.propertyNames) {
      const nameSchema = schemaFor(spec, schema.propertyNames as JsonSchema);
      const badNames = fc.oneof(...invalidStrings(nameSchema)).filter((n): n is string => typeof n === "string");
      options.push(fc.tuple(badNames, anyJson).map(([key, value]) => ({ [key]: value })));
    }
    options.push(
      fc.tuple(text(1, 8), invalidValue(spec, extra as JsonSchema, hints)).map(([key, value]) => ({ [key]: value })),
    );
    if (typeof schema.maxProperties === "number" && schema.maxProperties < 200) {
      const count = schema.maxProperties + 1;
      options.push(
        validValue(spec, extra as JsonSchema, hints).map((value) =>
          Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value])),
        ),
      );
    }
  }
  return options;
}
