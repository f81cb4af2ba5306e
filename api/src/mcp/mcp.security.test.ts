/**
 * The shared security suite, for the MCP surface: every tool, under every way a credential
 * can be wrong, refused as its REST operation is (routes/routes.security.*.test.ts, over
 * test/securedRoutes.ts). A credential that fails authentication is refused with 401 before
 * the MCP message is read; a narrow or confined one gets the REST refusal as a tool error. A
 * tool added without a row here fails the coverage test at the bottom.
 */
import { describe, expect, it } from "vitest";
import type { Scope } from "../../../tenants/account/scopes.ts";
import { call, expectProblem, mintToken } from "../../../test/client.ts";
import {
  expiredKey,
  keyForOtherWorkspace,
  keyWithout,
  revokedKey,
  type TenantFixture,
} from "../../../test/fixtures.ts";
import { answerOf, mcpClient } from "../../../test/mcpClient.ts";
import { securitySuiteCast, seededWorkspace } from "../../../test/securedRequests.ts";

interface SecuredTool {
  name: string;
  /**
   * `workspaceId: true` is filled with a fresh workspace of the owner, holding `/seed.txt`;
   * `snapshotId: true` and `from: true` with a snapshot of it.
   */
  args: Record<string, unknown>;
  scope: Scope;
  /** Tools that reach the whole account refuse credentials confined to workspaces or a path prefix. */
  accountWide?: boolean;
}

const TOOLS: SecuredTool[] = [
  { name: "workspace_create", args: {}, scope: "workspaces:write" },
  { name: "workspace_list", args: {}, scope: "workspaces:read" },
  { name: "workspace_delete", args: { workspaceId: true }, scope: "workspaces:write" },
  { name: "exec", args: { workspaceId: true, executor: "shell", command: "echo hi" }, scope: "exec" },
  { name: "file_read", args: { workspaceId: true, path: "seed.txt" }, scope: "workspaces:read" },
  { name: "file_write", args: { workspaceId: true, path: "new.txt", content: "x" }, scope: "workspaces:write" },
  { name: "file_list", args: { workspaceId: true }, scope: "workspaces:read" },
  { name: "grep", args: { workspaceId: true, pattern: "seed" }, scope: "workspaces:read" },
  { name: "find", args: { workspaceId: true, name: "*.txt" }, scope: "workspaces:read" },
  { name: "share_create", args: { workspaceId: true, path: "/seed.txt" }, scope: "workspaces:read" },
  { name: "snapshot_create", args: { workspaceId: true, name: "s" }, scope: "workspaces:write" },
  { name: "snapshot_list", args: { workspaceId: true }, scope: "workspaces:read" },
  { name: "snapshot_delete", args: { workspaceId: true, snapshotId: true }, scope: "workspaces:write" },
  { name: "restore", args: { workspaceId: true, snapshotId: true }, scope: "workspaces:write" },
  { name: "workspace_fork", args: { workspaceId: true, snapshotId: true }, scope: "workspaces:write" },
  { name: "diff", args: { workspaceId: true, from: true }, scope: "workspaces:read" },
  { name: "file_history", args: { workspaceId: true, path: "/seed.txt" }, scope: "workspaces:read" },
  { name: "usage", args: {}, scope: "billing:read", accountWide: true },
  { name: "quotas", args: {}, scope: "billing:read", accountWide: true },
];

async function argsFor(tool: SecuredTool, owner: TenantFixture): Promise<Record<string, unknown>> {
  if (!tool.args.workspaceId) return tool.args;
  const workspaceId = await seededWorkspace(owner);
  const args: Record<string, unknown> = { ...tool.args, workspaceId };
  if (tool.args.snapshotId || tool.args.from) {
    const taken = await call("POST", `/v1/workspaces/${workspaceId}/snapshots`, { key: owner.key, json: {} });
    expect(taken.status).toBe(201);
    const { id } = (await taken.json()) as { id: string };
    for (const name of ["snapshotId", "from"]) if (tool.args[name]) args[name] = id;
  }
  return args;
}

const cast = securitySuiteCast();

describe.each(TOOLS)("MCP tool $name", (tool) => {
  const use = async (key: string, owner = cast.alice) => {
    const client = await mcpClient(key);
    try {
      return await client.callTool({ name: tool.name, arguments: await argsFor(tool, owner) });
    } finally {
      await client.close();
    }
  };
  /** The tools/call as a bare POST, for credentials refused before any MCP message is read. */
  const post = async (key: string | undefined) =>
    call("POST", "/mcp", {
      key,
      headers: { accept: "application/json, text/event-stream" },
      json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: tool.args } },
    });
  const expectRefused = async (key: string | undefined, detail: RegExp) => {
    const problem = await expectProblem(await post(key), 401, "unauthorized");
    expect(problem.detail).toMatch(detail);
  };
  const expectToolError = (result: object, status: number, code: string) => {
    expect((result as { isError?: boolean }).isError).toBe(true);
    const answer = answerOf(result);
    expect(answer).toMatchObject({ status, code });
    return String(answer.detail);
  };

  it("works with a right credential (the control for every refusal below)", async () => {
    const result = await use(cast.alice.key);
    if (result.isError) throw new Error(`expected success, got ${JSON.stringify(result.content)}`);
  });

  it("refuses no credential, a malformed, mistyped, unknown, revoked or expired key, and a bad token", async () => {
    await expectRefused(undefined, /missing/);
    await expectRefused("not-a-key", /neither/);
    const last = cast.alice.key.at(-1) === "a" ? "b" : "a";
    await expectRefused(cast.alice.key.slice(0, -1) + last, /checksum/);
    const { generateKeySecret } = await import("../../../tenants/account/keySecret.ts");
    await expectRefused(await generateKeySecret(), /does not exist/);
    await expectRefused(await revokedKey(cast.alice), /revoked/);
    await expectRefused(await expiredKey(cast.alice), /expired/);
    await expectRefused(cast.aliceExpiredToken, /token has expired/);
    await expectRefused(cast.aliceOrphanedToken, /minted from has been revoked/);
  });

  it("refuses a key without the tool's scope", async () => {
    const detail = expectToolError(await use(await keyWithout(cast.alice, tool.scope)), 403, "forbidden");
    expect(detail).toContain(tool.scope);
  });

  if (tool.accountWide) {
    it("refuses a key restricted to some workspaces, and a token confined to a path prefix", async () => {
      expectToolError(await use(await keyForOtherWorkspace(cast.alice)), 403, "forbidden");
      const { token } = await mintToken(cast.alice.key, { pathPrefix: "/src" });
      expect(expectToolError(await use(token), 403, "forbidden")).toMatch(/path prefix \/src/);
    });
  }

  if (tool.args.workspaceId) {
    it("answers not_found for another tenant's workspace, and to a key restricted to another workspace", async () => {
      expectToolError(await use(cast.alice.key, cast.mallory), 404, "not_found");
      expectToolError(await use(await keyForOtherWorkspace(cast.alice)), 404, "not_found");
    });
  }
});

describe("coverage", () => {
  it("has a row for every tool /mcp lists", async () => {
    const client = await mcpClient(cast.alice.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });
});
