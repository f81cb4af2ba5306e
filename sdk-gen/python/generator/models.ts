/**
 * Emits models.py: a frozen dataclass per object schema with `from_dict` (unknown keys are
 * ignored, so a newer server does not break an older SDK) and `to_dict` (camelCase JSON back),
 * `Literal` aliases for enums, and parse/dump helpers for unions.
 */
import { docstring, HEADER, pyString, snake } from "./names.ts";
import {
  type AliasDef,
  dumpExpr,
  type Field,
  type ModelDef,
  optionalExpr,
  parseExpr,
  type Registry,
  typeExpr,
  type UnionDef,
} from "./types.ts";

export function emitModels(registry: Registry): string {
  const aliases = [...registry.aliases.values()];
  const models = [...registry.models.values()];
  const unions = [...registry.unions.values()];
  const names = [...aliases, ...models, ...unions].map((entry) => entry.name);
  const lines = [
    ...HEADER,
    '"""The API\'s data shapes, one dataclass per schema in openapi/openapi.json."""',
    "",
    "from __future__ import annotations",
    "",
    "from collections.abc import Mapping",
    "from dataclasses import dataclass",
    "from typing import TYPE_CHECKING, Any, Literal",
    "",
    "if TYPE_CHECKING:",
    "    from typing_extensions import Self",
    "",
    "__all__ = [",
    ...names.sort().map((name) => `    ${pyString(name)},`),
    "]",
    "",
    "",
    "def is_object(value: Any) -> bool:",
    '    """Whether a JSON value is an object (a dict), without narrowing its type."""',
    "    return isinstance(value, dict)",
    "",
  ];
  for (const alias of aliases) lines.push(...emitAlias(alias));
  for (const model of models) lines.push("", "", ...emitModel(model));
  for (const union of unions) lines.push("", "", ...emitUnion(union));
  return `${lines.join("\n")}\n`;
}

function emitAlias(alias: AliasDef): string[] {
  return ["", `${alias.name} = ${typeExpr(alias.type)}`, ...docstring(alias.description ?? "", "")];
}

function emitModel(model: ModelDef): string[] {
  const required = model.fields.filter((field) => field.required);
  const optional = model.fields.filter((field) => !field.required);
  const lines = ["@dataclass(frozen=True, kw_only=True)", `class ${model.name}:`];
  lines.push(...docstring(model.description ?? `The \`${model.name}\` object.`, "    "), "");
  for (const field of [...required, ...optional]) {
    const annotation = field.required ? typeExpr(field.type) + tagDefault(field) : `${optionalExpr(field.type)} = None`;
    lines.push(`    ${field.py}: ${annotation}`, ...docstring(field.description ?? "", "    "));
  }
  if (model.fields.length > 0) lines.push("");
  lines.push(...emitFromDict(model), "", ...emitToDict(model));
  return lines;
}

/** A field with one possible value (a union's tag, `op: "write"`) defaults to it. */
function tagDefault(field: Field): string {
  const only = field.type.kind === "literal" && field.type.values.length === 1 ? field.type.values[0] : undefined;
  return only === undefined ? "" : ` = ${JSON.stringify(only)}`;
}

function emitFromDict(model: ModelDef): string[] {
  const lines = [
    "    @classmethod",
    "    def from_dict(cls, data: Mapping[str, Any]) -> Self:",
    '        """Reads the JSON object; keys this version does not know are ignored."""',
  ];
  if (model.fields.length === 0) return [...lines, "        return cls()"];
  lines.push("        return cls(");
  for (const field of model.fields) lines.push(`            ${field.py}=${readField(field)},`);
  lines.push("        )");
  return lines;
}

function readField(field: Field): string {
  const key = pyString(field.json);
  if (field.required) return parseExpr(field.type, `data[${key}]`);
  const value = `data.get(${key})`;
  const parsed = parseExpr(field.type, `data[${key}]`);
  return parsed === `data[${key}]` ? value : `None if ${value} is None else ${parsed}`;
}

function emitToDict(model: ModelDef): string[] {
  const lines = ["    def to_dict(self) -> dict[str, Any]:", '        """The camelCase JSON object."""'];
  const required = model.fields.filter((field) => field.required);
  const optional = model.fields.filter((field) => !field.required);
  const entries = required.map((field) => `${pyString(field.json)}: ${dumpExpr(field.type, `self.${field.py}`)}`);
  const object =
    entries.join(", ").length <= 80
      ? [`{${entries.join(", ")}}`]
      : ["{", ...entries.map((entry) => `            ${entry},`), "        }"];
  if (optional.length === 0) return [...lines, `        return ${object.join("\n")}`];
  lines.push(`        out: dict[str, Any] = ${object.join("\n")}`);
  for (const field of optional) {
    lines.push(`        if self.${field.py} is not None:`);
    lines.push(`            out[${pyString(field.json)}] = ${dumpExpr(field.type, `self.${field.py}`)}`);
  }
  lines.push("        return out");
  return lines;
}

function emitUnion(union: UnionDef): string[] {
  const name = snake(union.name);
  const lines = [`${union.name} = ${union.variants.map((variant) => typeExpr(variant.type)).join(" | ")}`];
  lines.push(...docstring(union.description ?? "", ""), "", "");
  lines.push(`def parse_${name}(value: Any) -> ${union.name}:`, `    """Reads a \`${union.name}\` from JSON."""`);
  for (const variant of union.variants) {
    const parsed = parseExpr(variant.type, "value");
    if (variant.test === null) lines.push(`    return ${parsed}`);
    else lines.push(`    if ${variant.test}:`, `        return ${parsed}`);
  }
  if (union.variants.at(-1)?.test !== null) lines.push("    return value");
  lines.push("", "");
  lines.push(`def dump_${name}(value: ${union.name}) -> Any:`, `    """Writes a \`${union.name}\` as JSON."""`);
  const models = union.variants.filter((variant) => variant.type.kind === "model");
  const allModels = models.length === union.variants.length;
  for (const [index, variant] of models.entries()) {
    if (allModels && index === models.length - 1) return [...lines, "    return value.to_dict()"];
    lines.push(`    if isinstance(value, ${typeExpr(variant.type)}):`, "        return value.to_dict()");
  }
  lines.push("    return value");
  return lines;
}
