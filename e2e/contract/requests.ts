/**
 * Requests generated from an operation's parameters and body, put on the wire, and read
 * back the way the server will read them, to tell a schema-valid request from one that
 * is not. The classification comes from the wire, not from the generator's aim: a query
 * value is whatever its text parses to under the parameter's type, as OpenAPI's form style
 * and the server's coercion both read it.
 */
import fc from "fast-check";
import { type Hints, validValue } from "./arbitraries.ts";
import type { CredentialName } from "./fixture.ts";
import { invalidValue } from "./invalidValues.ts";
import { type JsonSchema, type Operation, type Parameter, type Spec, schemaFor } from "./spec.ts";
import type { Validator } from "./validator.ts";

/** What the generator drew: values by `in:name`, and the body (absent, a value, or broken JSON text). */
export interface Draw {
  operation: Operation;
  aim: "valid" | "invalid";
  /** Who sends it (fixture.ts); mostly the account's own key, so most requests get past authorization. */
  credential: CredentialName;
  /**
   * Send it again with this body after a first answer that held: with the same body the
   * second exercises an `Idempotency-Key` replay, with another its mismatch.
   */
  twice: { body: Draw["body"] } | null;
  /** An `Accept` header asking for another media type a success documents (CSV, an event stream), or null. */
  accept: string | null;
  params: Record<string, unknown>;
  body: { kind: "absent" } | { kind: "value"; value: unknown } | { kind: "malformed"; text: string };
}

export interface WireRequest {
  method: string;
  /** Path and query, as sent. */
  target: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

const key = (p: Parameter) => `${p.in}:${p.name}`;

export function drawFor(spec: Spec, operation: Operation, hints: Hints): fc.Arbitrary<Draw> {
  const validParams = fc.record(
    Object.fromEntries(operation.parameters.map((p) => [key(p), validValue(spec, p.schema, hints, key(p))])),
    { requiredKeys: operation.parameters.filter((p) => p.required).map(key) },
  );
  const body = operation.body;
  const validBody: fc.Arbitrary<Draw["body"]> = body
    ? (body.required ? fc.constant(true) : fc.boolean()).chain(
        (present): fc.Arbitrary<Draw["body"]> =>
          present
            ? validValue(spec, body.schema, hints).map((value) => ({ kind: "value" as const, value }))
            : fc.constant({ kind: "absent" as const }),
      )
    : fc.constant({ kind: "absent" as const });
  const credential = fc.constantFrom<CredentialName>(
    "key",
    "key",
    "key",
    "key",
    "key",
    "key",
    "readOnlyKey",
    "confinedToken",
  );
  const idempotent = operation.parameters.some((p) => p.name === "idempotency-key");
  const valid = fc
    .record({
      params: validParams,
      body: validBody,
      credential,
      twice: idempotent
        ? fc.option(fc.record({ same: fc.boolean(), body: validBody }), { freq: 2 })
        : fc.constant(null),
      accept: acceptFor(operation),
    })
    .map(
      (parts): Draw => ({
        operation,
        aim: "valid",
        ...parts,
        // Half of the second sends repeat the first body exactly: a replay.
        twice: parts.twice && { body: parts.twice.same ? parts.body : parts.twice.body },
      }),
    );
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: breakOne(spec, operation, valid, hints) });
}

/** Mostly no `Accept`, sometimes one of the non-JSON media types the operation's successes document. */
function acceptFor(operation: Operation): fc.Arbitrary<string | null> {
  const others = new Set<string>();
  for (const [status, media] of operation.responses) {
    if (status >= 200 && status < 300) for (const type of media.keys()) if (!type.endsWith("json")) others.add(type);
  }
  // Bytes are what file and archive reads answer anyway; asking for them changes nothing.
  const asked = [...others].filter((type) => type !== "application/octet-stream" && type !== "application/gzip");
  return asked.length === 0 ? fc.constant(null) : fc.option(fc.constantFrom(...asked), { freq: 2 });
}

/** A valid draw with one thing broken: a parameter, the body, or the body's JSON itself. */
function breakOne(spec: Spec, operation: Operation, valid: fc.Arbitrary<Draw>, hints: Hints): fc.Arbitrary<Draw> {
  const breakers: fc.Arbitrary<(draw: Draw) => Draw>[] = operation.parameters.map((p) =>
    fc
      .option(invalidValue(spec, p.schema, hints), { freq: 5, nil: undefined })
      .map((bad) => (draw: Draw) => ({ ...draw, params: { ...draw.params, [key(p)]: bad } })),
  );
  if (operation.body) {
    const schema = operation.body.schema;
    breakers.push(
      invalidValue(spec, schema, hints).map((value) => (draw: Draw) => ({ ...draw, body: { kind: "value", value } })),
    );
    if (operation.body.contentType === "application/json") {
      breakers.push(
        fc.constantFrom("{", '{"a":', "nul", "[1,]", "{'a':1}").map((text) => (draw: Draw) => ({
          ...draw,
          body: { kind: "malformed", text },
        })),
      );
    }
  }
  if (breakers.length === 0) return valid;
  return fc.tuple(valid, fc.oneof(...breakers)).map(([draw, apply]) => ({ ...apply(draw), aim: "invalid" }));
}

/** The text a value travels as in a URL or a header. */
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A header value fetch can send unchanged: visible ASCII, inner spaces, nothing to trim. */
const SENDABLE_HEADER = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The request as it goes out, or null when HTTP cannot carry the draw as it stands: an
 * empty path segment for an id, a `.`/`..` segment (URL parsing resolves them away before
 * the server sees them), or a header value with control characters or outer spaces.
 */
export function toWire(draw: Draw, resolve: (value: unknown) => unknown): WireRequest | null {
  const { operation } = draw;
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of operation.parameters) {
    const raw = resolve(draw.params[key(p)]);
    if (raw === undefined) {
      if (p.in === "path") return null;
      continue;
    }
    const value = asText(raw);
    if (p.in === "path") {
      const segments = p.name === "path" ? value.split("/") : [value];
      if (value === "" || segments.some((s) => s === "." || s === "..")) return null;
      const encoded = encodeSegments(segments);
      if (encoded === null) return null;
      path = path.replace(`{${p.name}}`, encoded);
    } else if (p.in === "query") {
      query.append(p.name, value);
    } else {
      if (!SENDABLE_HEADER.test(value)) return null;
      headers[p.name] = value;
    }
  }
  let body: WireRequest["body"] = null;
  if (draw.body.kind === "malformed") body = draw.body.text;
  if (draw.body.kind === "value") {
    const value = draw.body.value;
    body = value instanceof Uint8Array ? value : JSON.stringify(value);
  }
  if (body !== null) headers["content-type"] = operation.body?.contentType ?? "application/json";
  if (draw.accept !== null) headers.accept = draw.accept;
  const search = query.toString();
  return { method: operation.method, target: search ? `${path}?${search}` : path, headers, body };
}

/** Percent-encoded segments, or null for text a URL cannot carry (a lone UTF-16 surrogate). */
function encodeSegments(segments: string[]): string | null {
  try {
    return segments.map(encodeURIComponent).join("/");
  } catch {
    return null;
  }
}

/** A parameter's text read back under its schema's type: a number or boolean when it parses as one. */
function fromText(spec: Spec, schema: JsonSchema, text: string): unknown {
  const resolved = schemaFor(spec, schema);
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  if ((types.includes("integer") || types.includes("number")) && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    return Number(text);
  }
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  return text;
}

/**
 * Why the request as sent breaks the operation's schema, or null when it is valid: every
 * parameter read back from the wire, and the body parsed from the bytes that went out.
 */
export function schemaProblems(spec: Spec, validator: Validator, draw: Draw, wire: WireRequest): string | null {
  const { operation } = draw;
  const url = new URL(wire.target, "http://x");
  const segments = pathParams(operation.path, url.pathname);
  for (const p of operation.parameters) {
    const text =
      p.in === "path"
        ? segments[p.name]
        : p.in === "query"
          ? url.searchParams.get(p.name)
          : (wire.headers[p.name] ?? null);
    if (text === null || text === undefined) {
      if (p.required) return `${p.in} ${p.name}: missing`;
      continue;
    }
    const problem = validator.problems(p.schema, fromText(spec, p.schema, text));
    if (problem) return `${p.in} ${p.name}: ${problem}`;
  }
  const body = operation.body;
  if (!body) return null;
  if (wire.body === null) return body.required ? "body: missing" : null;
  if (body.contentType !== "application/json") return null;
  let value: unknown;
  try {
    value = JSON.parse(wire.body as string);
  } catch {
    return "body: not JSON";
  }
  const problem = validator.problems(body.schema, value);
  return problem ? `body: ${problem}` : null;
}

/** The decoded values of a path template's parameters in a concrete path. */
function pathParams(template: string, pathname: string): Record<string, string> {
  const names: string[] = [];
  const pattern = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return name === "path" ? "(.+)" : "([^/]+)";
  });
  const match = new RegExp(`^${pattern}$`).exec(pathname);
  if (!match) return {};
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]));
}
