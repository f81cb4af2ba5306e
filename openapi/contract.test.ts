/**
 * openapi/openapi.json states the rules the gateway enforces: every request the gateway
 * refuses in api/src/routes/contract.test.ts (the table in test/contractCases.ts) is
 * invalid under the document's own schemas, checked with a JSON Schema validator, so an
 * SDK or a client validating against the document learns the rule before sending.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../e2e/contract/spec.ts";
import { createValidator } from "../e2e/contract/validator.ts";
import { REFUSED } from "../test/contractCases.ts";

const spec = loadSpec();
const validator = createValidator(spec);

function schemaOf(operationId: string, part: string, name: string | undefined) {
  const operation = spec.operations.find((op) => op.operationId === operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  if (part === "body") return { body: operation.body?.schema, params: [] };
  const parameter = operation.parameters.find((p) => p.in === part && p.name === name);
  if (!parameter) throw new Error(`${operationId} has no ${part} parameter ${name}`);
  return { body: undefined, params: [parameter.schema] };
}

describe("the document refuses what the gateway refuses", () => {
  it.each(REFUSED)("$operationId: $why", ({ operationId, part, name, value }) => {
    const { body, params } = schemaOf(operationId, part, name);
    const schema = body ?? params[0];
    expect(schema, "a schema to check against").toBeDefined();
    expect(validator.problems(schema as Record<string, unknown>, value), "the document accepts it").not.toBeNull();
  });

  it("documents 409 wherever an Idempotency-Key is taken (a key in use, or reused with another body)", () => {
    const idempotent = spec.operations.filter((op) => op.parameters.some((p) => p.name === "idempotency-key"));
    expect(idempotent.map((op) => op.operationId)).toContain("exec");
    for (const op of idempotent) expect([...op.responses.keys()], op.operationId).toContain(409);
  });

  it("accepts the corrected requests", () => {
    const exec = schemaOf("exec", "body", undefined).body as Record<string, unknown>;
    expect(validator.problems(exec, { executor: "shell", command: "ls", cwd: "/tmp/x" })).toBeNull();
    expect(validator.problems(exec, { executor: "javascript", code: "export default () => 1", input: [1] })).toBeNull();
    const grep = schemaOf("grep", "body", undefined).body as Record<string, unknown>;
    expect(validator.problems(grep, { pattern: "hello", include: ["*.ts"] })).toBeNull();
    const batch = schemaOf("batch", "body", undefined).body as Record<string, unknown>;
    expect(validator.problems(batch, { ops: [{ op: "write", path: "/x.bin", contentBase64: "AAE=" }] })).toBeNull();
    const key = schemaOf("exec", "header", "idempotency-key").params[0] as Record<string, unknown>;
    expect(validator.problems(key, "retry-42")).toBeNull();
  });
});
