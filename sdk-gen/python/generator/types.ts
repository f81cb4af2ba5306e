/**
 * The Python types the generator speaks in, and how each becomes a type expression, a JSON
 * parse expression and a JSON dump expression. Every model, alias and union the document
 * needs is named once, in a `Registry`, so models.py and operations.py agree on names.
 */
import { snake } from "./names.ts";

export type PyType =
  | { kind: "prim"; name: "str" | "bytes" | "int" | "float" | "bool" }
  | { kind: "any" }
  | { kind: "literal"; values: (string | number | boolean)[] }
  /** A named alias: a component enum (`Scope`), a map (`Metadata`). */
  | { kind: "alias"; name: string; target: PyType }
  | { kind: "model"; name: string }
  | { kind: "list"; item: PyType }
  | { kind: "map"; value: PyType }
  | { kind: "nullable"; inner: PyType }
  /** Several shapes, told apart at run time by `test`; named, with parse/dump helpers. */
  | { kind: "union"; name: string };

export interface Field {
  json: string;
  py: string;
  type: PyType;
  required: boolean;
  description: string | undefined;
  /** The schema lets the field be null (a required field may still carry null). */
  nullable: boolean;
}

export interface ModelDef {
  name: string;
  /** The schema it was read from, as JSON: the same inline schema met twice is one model. */
  source: string;
  description: string | undefined;
  fields: Field[];
}

export interface AliasDef {
  name: string;
  type: PyType;
  description: string | undefined;
}

export interface UnionVariant {
  type: PyType;
  /** A Python condition on `value`, or null for the fallback (last) variant. */
  test: string | null;
}

export interface UnionDef {
  name: string;
  variants: UnionVariant[];
  description: string | undefined;
}

export interface Registry {
  models: Map<string, ModelDef>;
  aliases: Map<string, AliasDef>;
  unions: Map<string, UnionDef>;
}

export function typeExpr(type: PyType): string {
  switch (type.kind) {
    case "prim":
      return type.name;
    case "any":
      return "Any";
    case "literal":
      return `Literal[${type.values.map((value) => JSON.stringify(value)).join(", ")}]`;
    case "alias":
    case "model":
    case "union":
      return type.name;
    case "list":
      return `list[${typeExpr(type.item)}]`;
    case "map":
      return `dict[str, ${typeExpr(type.value)}]`;
    case "nullable":
      return type.inner.kind === "any" ? "Any" : `${typeExpr(type.inner)} | None`;
  }
}

/** The type of an optional attribute or argument: None stands for "absent". */
export function optionalExpr(type: PyType): string {
  if (type.kind === "any" || type.kind === "nullable") return typeExpr(type);
  return `${typeExpr(type)} | None`;
}

/** Whether JSON needs converting to reach this type (models do; str, int and Any do not). */
export function needsConversion(type: PyType): boolean {
  switch (type.kind) {
    case "model":
    case "union":
      return true;
    case "alias":
      return needsConversion(type.target);
    case "list":
      return needsConversion(type.item);
    case "map":
      return needsConversion(type.value);
    case "nullable":
      return needsConversion(type.inner);
    default:
      return false;
  }
}

/** A Python expression turning the JSON `value` (typed Any) into `type`. */
export function parseExpr(type: PyType, value: string, depth = 0): string {
  if (!needsConversion(type)) return value;
  const item = `x${depth}`;
  switch (type.kind) {
    case "model":
      return `${type.name}.from_dict(${value})`;
    case "union":
      return `parse_${snake(type.name)}(${value})`;
    case "alias":
      return parseExpr(type.target, value, depth);
    case "list":
      return `[${parseExpr(type.item, item, depth + 1)} for ${item} in ${value}]`;
    case "map":
      return `{k${depth}: ${parseExpr(type.value, item, depth + 1)} for k${depth}, ${item} in ${value}.items()}`;
    case "nullable":
      return `None if ${value} is None else ${parseExpr(type.inner, value, depth)}`;
    default:
      return value;
  }
}

/** A Python expression turning `value` (of `type`) back into JSON. */
export function dumpExpr(type: PyType, value: string, depth = 0): string {
  if (!needsConversion(type)) return value;
  const item = `x${depth}`;
  switch (type.kind) {
    case "model":
      return `${value}.to_dict()`;
    case "union":
      return `dump_${snake(type.name)}(${value})`;
    case "alias":
      return dumpExpr(type.target, value, depth);
    case "list":
      return `[${dumpExpr(type.item, item, depth + 1)} for ${item} in ${value}]`;
    case "map":
      return `{k${depth}: ${dumpExpr(type.value, item, depth + 1)} for k${depth}, ${item} in ${value}.items()}`;
    case "nullable":
      return `None if ${value} is None else ${dumpExpr(type.inner, value, depth)}`;
    default:
      return value;
  }
}

/** One argument of a generated method: a path, query, header or body parameter (operations.ts). */
export interface Argument {
  py: string;
  /** The wire name: the path template's name, the query key, the header or the JSON key. */
  wire: string;
  where: "path" | "query" | "header" | "body" | "content";
  type: PyType;
  required: boolean;
  nullable: boolean;
  description: string | undefined;
  /** A path parameter whose `/` separators are kept (each segment is encoded). */
  keepsSlashes: boolean;
}
