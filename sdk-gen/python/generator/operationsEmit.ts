/**
 * Emits operations.py: one function per operation. Each takes the transport first and then
 * keyword-only arguments, builds the request (path parameters percent-encoded), marks whether
 * it may be retried, and parses the 2xx answer into its model.
 */
import { docstring, HEADER, pyDocText, pyString, snake } from "./names.ts";
import type { Operation, Returns } from "./operations.ts";
import { type Argument, dumpExpr, optionalExpr, parseExpr, type Registry, typeExpr } from "./types.ts";

const LIB_NAMES = [
  "NOT_GIVEN",
  "NotGiven",
  "Request",
  "Transport",
  "encode_query_value",
  "quote_path",
  "quote_segment",
];

export function emitOperations(operations: Operation[], registry: Registry): string {
  const functions = operations.flatMap((operation) => ["", "", ...emitOperation(operation)]);
  const code = functions.join("\n");
  const used = (name: string) => new RegExp(`\\b${name}\\b`).test(code);
  const modelNames = [...registry.aliases.keys(), ...registry.models.keys(), ...registry.unions.keys()];
  const helpers = [...registry.unions.keys()].flatMap((name) => [`parse_${snake(name)}`, `dump_${snake(name)}`]);
  const fromModels = [...modelNames, ...helpers].filter(used).sort();
  const typing = ["Any", "Literal"].filter(used);
  const lines = [
    ...HEADER,
    '"""One function per API operation; the client in cubicle.lib wraps them in resources."""',
    "",
    "from __future__ import annotations",
    "",
    ...(used("uuid") ? ["import uuid"] : []),
    ...(typing.length > 0 ? [`from typing import ${typing.join(", ")}`] : []),
    "",
    `from ..lib.transport import ${LIB_NAMES.filter(used).join(", ")}`,
    ...(fromModels.length > 0 ? ["from .models import (", ...fromModels.map((name) => `    ${name},`), ")"] : []),
    "",
    "__all__ = [",
    ...operations
      .map((operation) => operation.py)
      .sort()
      .map((name) => `    ${pyString(name)},`),
    "]",
  ];
  return `${[...lines, ...functions].join("\n")}\n`;
}

function emitOperation(operation: Operation): string[] {
  const lines = [`def ${operation.py}(`, "    transport: Transport,", "    *,"];
  for (const arg of ordered(operation.args)) lines.push(`    ${signature(arg)},`);
  if (operation.idempotencyKey && !operation.args.some((arg) => arg.py === "idempotency_key")) {
    lines.push("    idempotency_key: str | None = None,");
  }
  lines.push("    timeout: float | None = None,", `) -> ${returnType(operation.returns)}:`);
  lines.push(...docstring(describe(operation), "    "));
  lines.push(...buildRequest(operation), ...returnValue(operation.returns));
  return lines;
}

/** Path parameters, then what the body needs, then the optional rest. */
function ordered(args: Argument[]): Argument[] {
  const rank = (arg: Argument) => (arg.where === "path" ? 0 : arg.required ? 1 : arg.where === "body" ? 2 : 3);
  return [...args].sort((a, b) => rank(a) - rank(b));
}

function signature(arg: Argument): string {
  if (arg.required) return `${arg.py}: ${typeExpr(arg.type)}`;
  if (arg.where === "body" && arg.nullable) return `${arg.py}: ${typeExpr(arg.type)} | NotGiven = NOT_GIVEN`;
  return `${arg.py}: ${optionalExpr(arg.type)} = None`;
}

function returnType(returns: Returns): string {
  if (returns.kind === "json") return typeExpr(returns.type);
  if (returns.kind === "bytes") return "bytes";
  if (returns.kind === "headers") return "dict[str, str]";
  return "None";
}

function describe(operation: Operation): string {
  const parts = [operation.summary ?? operation.id, operation.description ?? ""];
  const documented = ordered(operation.args).filter((arg) => arg.description !== undefined);
  if (documented.length > 0) {
    const args = documented.map((arg) => `    ${arg.py}: ${(arg.description ?? "").replace(/\s*\n\s*/g, " ")}`);
    parts.push(["Args:", ...args].join("\n"));
  }
  const safety = operation.retrySafe;
  parts.push(
    `\`${operation.method} ${operation.path}\` (\`${operation.id}\`). Retry-safe: ${
      safety.kind === "always" ? "yes" : safety.kind === "never" ? "no" : `unless \`${safety.arg}\` is set`
    }${operation.idempotencyKey ? "; an Idempotency-Key is always sent, generated when not given" : ""}.`,
  );
  return pyDocText(parts.filter((part) => part.trim() !== "").join("\n\n"));
}

function buildRequest(operation: Operation): string[] {
  const lines: string[] = [];
  const query = operation.args.filter((arg) => arg.where === "query");
  const headers = operation.args.filter((arg) => arg.where === "header" && arg.py !== "idempotency_key");
  const body = operation.args.filter((arg) => arg.where === "body");
  const content = operation.args.find((arg) => arg.where === "content");
  if (query.length > 0) lines.push("    query: dict[str, str] = {}", ...query.flatMap((arg) => assign("query", arg)));
  if (headers.length > 0 || operation.idempotencyKey) lines.push("    headers: dict[str, str] = {}");
  if (operation.idempotencyKey) {
    lines.push(
      '    headers["Idempotency-Key"] = idempotency_key if idempotency_key is not None else str(uuid.uuid4())',
    );
  }
  lines.push(...headers.flatMap((arg) => assign("headers", arg)));
  const hasBody = body.length > 0 || isJsonBody(operation);
  if (hasBody) lines.push("    body: dict[str, Any] = {}", ...body.flatMap((arg) => assign("body", arg)));
  const safety = operation.retrySafe;
  const retrySafe = safety.kind === "always" ? "True" : safety.kind === "never" ? "False" : `not ${safety.arg}`;
  const call = operation.returns.kind === "none" ? "transport.request(" : "response = transport.request(";
  lines.push(
    `    ${call}`,
    "        Request(",
    `            method=${pyString(operation.method)},`,
    `            path=${pathExpr(operation)},`,
    ...(query.length > 0 ? ["            query=query,"] : []),
    ...(headers.length > 0 || operation.idempotencyKey ? ["            headers=headers,"] : []),
    ...(hasBody ? ["            json=body,"] : []),
    ...(content !== undefined ? [`            content=${content.py},`] : []),
    `            retry_safe=${retrySafe},`,
    "            timeout=timeout,",
    "        )",
    "    )",
  );
  return lines;
}

function isJsonBody(operation: Operation): boolean {
  return operation.args.some((arg) => arg.where === "body");
}

/** One `target[...] = ...` statement for an argument, guarded when it is optional. */
function assign(target: "query" | "headers" | "body", arg: Argument): string[] {
  const key = target === "headers" ? canonicalHeader(arg.wire) : arg.wire;
  const value =
    target === "query" ? `encode_query_value(${arg.py})` : target === "body" ? dumpExpr(arg.type, arg.py) : arg.py;
  const statement = `${target}[${pyString(key)}] = ${value}`;
  if (arg.required) return [`    ${statement}`];
  const guard = target === "body" && arg.nullable ? `not isinstance(${arg.py}, NotGiven)` : `${arg.py} is not None`;
  return [`    if ${guard}:`, `        ${statement}`];
}

function canonicalHeader(name: string): string {
  return name
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("-");
}

function pathExpr(operation: Operation): string {
  const byWire = new Map(operation.args.filter((arg) => arg.where === "path").map((arg) => [arg.wire, arg]));
  let template = false;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const arg = byWire.get(name);
    if (arg === undefined) throw new Error(`${operation.id}: path parameter ${name} is not declared`);
    template = true;
    return `{${arg.keepsSlashes ? "quote_path" : "quote_segment"}(${arg.py})}`;
  });
  return template ? `f${pyString(path)}` : pyString(path);
}

function returnValue(returns: Returns): string[] {
  if (returns.kind === "json") return [`    return ${parseExpr(returns.type, "response.json()")}`];
  if (returns.kind === "bytes") return ["    return response.body"];
  if (returns.kind === "headers") return ["    return dict(response.headers)"];
  return [];
}
