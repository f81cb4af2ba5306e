/**
 * The committed OpenAPI document is what the routes produce, is valid OpenAPI 3.1, and
 * describes every operation well enough to generate an SDK from: a stable operationId, a
 * summary, and the one error model (problem+json), including 401 wherever a key is needed.
 */
import { readFile } from "node:fs/promises";
import { compileErrors, validate } from "@readme/openapi-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { GENERATED_NOTE, openApiDocumentText, openApiPath } from "./generate.ts";

type Response = { content?: Record<string, unknown> };
type Operation = {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, Response>;
};
type Document = {
  "x-generated"?: string;
  openapi: string;
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
};

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

let committedText: string;
let document: Document;

beforeAll(async () => {
  committedText = await readFile(openApiPath, "utf8");
  document = JSON.parse(committedText) as Document;
});

function operations(): { name: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
}

describe("openapi/openapi.json", () => {
  it("is what the routes produce now (else run `npm run gen:openapi`)", async () => {
    expect(committedText).toBe(await openApiDocumentText());
  });

  it("says first that it is generated", () => {
    expect(Object.keys(document)[0]).toBe("x-generated");
    expect(document["x-generated"]).toBe(GENERATED_NOTE);
  });

  it("is valid OpenAPI 3.1", async () => {
    expect(document.openapi).toBe("3.1.0");
    // validate() dereferences the document it is given, so it gets a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("has operations to describe", () => {
    expect(operations().length).toBeGreaterThan(0);
  });

  it("gives every operation a unique operationId and a summary", () => {
    const ids = new Set<string>();
    for (const { name, operation } of operations()) {
      expect(operation.operationId, `${name} has no operationId`).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(operation.summary?.trim(), `${name} has no summary`).toBeTruthy();
      expect(ids.has(operation.operationId ?? ""), `${name} repeats ${operation.operationId}`).toBe(false);
      ids.add(operation.operationId ?? "");
    }
  });

  it("answers 401 as problem+json wherever an operation needs a credential", () => {
    const secured = operations().filter(({ operation }) => (operation.security ?? document.security ?? []).length > 0);
    expect(secured.length).toBeGreaterThan(0);
    for (const { name, operation } of secured) {
      const unauthorized = operation.responses?.["401"];
      expect(unauthorized, `${name} declares no 401`).toBeDefined();
      expect(Object.keys(unauthorized?.content ?? {}), `${name}'s 401`).toEqual(["application/problem+json"]);
    }
  });

  it("describes every error response as problem+json", () => {
    for (const { name, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        expect(Object.keys(response.content ?? {}), `${name} ${status}`).toEqual(["application/problem+json"]);
      }
    }
  });
});
