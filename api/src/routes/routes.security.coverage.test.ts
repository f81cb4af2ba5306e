/**
 * The shared security suite covers everything: the table every routes.security.*.test.ts
 * runs (test/securedRoutes.ts) has a row for each authenticated operation of the OpenAPI
 * document, and for the operation behind each MCP tool. A route added without a row fails here.
 */
import { describe, expect, it } from "vitest";
import { call, json } from "../../../test/client.ts";
import { SECURED_ROUTES } from "../../../test/securedRoutes.ts";
import { TOOLS as MCP_TOOLS } from "../mcp/tools.ts";

describe("coverage", () => {
  it("has a row for every authenticated operation in the OpenAPI document", async () => {
    const document = await json<{
      paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
    }>(await call("GET", "/openapi.json"));
    const secured = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.security && operation.security.length > 0)
      .map((operation) => operation.operationId)
      .sort();
    expect(secured).toEqual(SECURED_ROUTES.map((r) => r.operationId).sort());
  });

  it("covers the operation behind every MCP tool (mcp/mcp.security.test.ts runs each tool through the same refusals)", () => {
    const covered = new Set(SECURED_ROUTES.map((r) => r.operationId));
    expect(MCP_TOOLS.filter((tool) => !covered.has(tool.operationId)).map((tool) => tool.name)).toEqual([]);
  });
});
