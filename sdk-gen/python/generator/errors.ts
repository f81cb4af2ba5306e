/**
 * Emits errors.py from the shared error model (sdk-gen/errors.ts), so the Python hierarchy is
 * the TypeScript one: a class per status, a class per problem `code` extending it, and the two
 * lookup tables `error_from_response` uses.
 */
import { type ErrorModel, errorModel } from "../../errors.ts";
import { docstring, HEADER, pyString } from "./names.ts";

export function emitErrors(document: Parameters<typeof errorModel>[0]): string {
  const model = errorModel(document);
  const codeClasses = model.codes.filter((code) => code.name !== code.parent);
  const names = [...model.statuses.map((status) => status.name), ...codeClasses.map((code) => code.name)];
  const lines = [
    ...HEADER,
    '"""One exception class per HTTP status, and one per problem `code` extending its status\'s class."""',
    "",
    "from __future__ import annotations",
    "",
    "from ..lib.errors import APIError",
    "",
    "__all__ = [",
    ...[...names, "CODE_ERRORS", "STATUS_ERRORS"].sort().map((name) => `    ${pyString(name)},`),
    "]",
  ];
  for (const status of model.statuses) {
    const served = model.codes.filter((code) => code.name === status.name).map((code) => `\`${code.code}\``);
    const also = served.length > 0 ? ` It also stands for the code ${served.join(", ")}.` : "";
    lines.push("", "", `class ${status.name}(APIError):`);
    lines.push(...docstring(`${status.status} ${status.reason}.${also}`, "    "), "", `    status = ${status.status}`);
  }
  for (const code of codeClasses) {
    lines.push("", "", `class ${code.name}(${code.parent}):`);
    lines.push(...docstring(`${code.status} \`${code.code}\`: ${code.title}.`, "    "), "");
    lines.push(`    code = ${pyString(code.code)}`);
  }
  lines.push("", "", ...tables(model));
  return `${lines.join("\n")}\n`;
}

function tables(model: ErrorModel): string[] {
  return [
    "STATUS_ERRORS: dict[int, type[APIError]] = {",
    ...model.statuses.map((status) => `    ${status.status}: ${status.name},`),
    "}",
    '"""The class for each status, when the problem\'s code has none of its own."""',
    "",
    "CODE_ERRORS: dict[str, type[APIError]] = {",
    ...model.codes.map((code) => `    ${pyString(code.code)}: ${code.name},`),
    "}",
    '"""The class for each documented problem `code`."""',
  ];
}
