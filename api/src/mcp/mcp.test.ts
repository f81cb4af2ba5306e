import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, json, signup } from "../../../test/client.ts";
import { answerOf, mcpClient } from "../../../test/mcpClient.ts";

async function apiRequestsUsed(key: string): Promise<number> {
  const quotas = await json<{ meters: { meter: string; used: number }[] }>(await call("GET", "/v1/quotas", { key }));
  return quotas.meters.find((m) => m.meter === "api_requests")?.used ?? Number.NaN;
}

describe("/mcp", () => {
  it("lists every tool with an object schema taken from its REST operation", async () => {
    const { key } = await signup();
    const client = await mcpClient(key);
    expect(client.getServerVersion()?.name).toBe("cubicle");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "diff",
        "exec",
        "file_history",
        "file_list",
        "file_read",
        "file_write",
        "find",
        "grep",
        "quotas",
        "restore",
        "share_create",
        "snapshot_create",
        "snapshot_delete",
        "snapshot_list",
        "usage",
        "workspace_create",
        "workspace_delete",
        "workspace_fork",
        "workspace_list",
      ].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    const exec = tools.find((t) => t.name === "exec");
    const properties = exec?.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>;
    expect(properties.executor?.enum).toEqual(["shell", "javascript", "container"]);
    expect(properties.code?.description).toContain("Only with executor `javascript`");
    expect(properties.timeoutMs).toMatchObject({ type: "integer", maximum: 900000 });
    expect(properties.background).toBeUndefined();
    expect(exec?.inputSchema.required).toEqual(["workspaceId", "executor"]);
  });

  it("writes a file and reads it back, text and binary", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const client = await mcpClient(key);
    const written = await client.callTool({
      name: "file_write",
      arguments: { workspaceId, path: "notes/plan.md", content: "# Plan\n" },
    });
    expect(written.isError).toBeFalsy();
    expect(answerOf(written)).toMatchObject({ path: "/notes/plan.md", size: 7, type: "file" });
    const read = await client.callTool({ name: "file_read", arguments: { workspaceId, path: "/notes/plan.md" } });
    expect(read.content).toEqual([{ type: "text", text: "# Plan\n" }]);
    // Over REST too: the tool wrote the workspace's real file.
    const rest = await call("GET", `/v1/workspaces/${workspaceId}/files/notes/plan.md`, { key });
    expect(await rest.text()).toBe("# Plan\n");

    const bytes = btoa(String.fromCharCode(0, 255, 1, 254));
    await client.callTool({
      name: "file_write",
      arguments: { workspaceId, path: "b.bin", content: bytes, encoding: "base64" },
    });
    const binary = await client.callTool({ name: "file_read", arguments: { workspaceId, path: "b.bin" } });
    expect(answerOf(binary).text).toBe(`(binary, 4 bytes, base64) ${bytes}`);
    const part = await client.callTool({
      name: "file_read",
      arguments: { workspaceId, path: "notes/plan.md", offset: 2, length: 4 },
    });
    expect(answerOf(part).text).toBe("Plan");
  });

  it("runs a command with its output as progress notifications and answers its exit code", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const client = await mcpClient(key);
    const progress: string[] = [];
    const result = await client.callTool(
      { name: "exec", arguments: { workspaceId, executor: "shell", command: "echo one; echo two >&2; exit 3" } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? "") },
    );
    expect(result.isError).toBeFalsy();
    expect(answerOf(result)).toMatchObject({ status: "failed", exitCode: 3, stdout: "one\n", stderr: "two\n" });
    expect(progress.join("")).toContain("one\n");
    expect(progress.join("")).toContain("two\n");
    const js = await client.callTool({
      name: "exec",
      arguments: { workspaceId, executor: "javascript", code: "export default (n) => n * 2", input: 21 },
    });
    expect(answerOf(js)).toMatchObject({ status: "completed", result: 42 });
  });

  it("bills a tool call as the one REST request it stands for", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const client = await mcpClient(key);
    const before = await apiRequestsUsed(key);
    await client.callTool({ name: "file_list", arguments: { workspaceId } });
    await client.callTool({ name: "file_list", arguments: { workspaceId } });
    // Two tool calls, and the quotas read that counts itself.
    expect(await apiRequestsUsed(key)).toBe(before + 3);
  });

  it("refuses a write to a read-only key, and another tenant's workspace as missing", async () => {
    const owner = await signup();
    const workspaceId = await createWorkspace(owner.key);
    const reader = await createKey(owner.key, { scopes: ["workspaces:read"] });
    const client = await mcpClient(reader.key);
    const refused = await client.callTool({
      name: "file_write",
      arguments: { workspaceId, path: "x.txt", content: "no" },
    });
    expect(refused.isError).toBe(true);
    expect(answerOf(refused)).toMatchObject({ status: 403, code: "forbidden" });
    expect((await call("HEAD", `/v1/workspaces/${workspaceId}/files/x.txt`, { key: owner.key })).status).toBe(404);

    const stranger = await mcpClient((await signup()).key);
    const hidden = await stranger.callTool({ name: "file_read", arguments: { workspaceId, path: "x.txt" } });
    expect(answerOf(hidden)).toMatchObject({ status: 404, code: "not_found" });
  });

  it("refuses bad arguments with the REST route's own validation, and counts what it refuses", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const client = await mcpClient(key);
    const before = await apiRequestsUsed(key);
    const noCommand = await client.callTool({ name: "exec", arguments: { workspaceId, executor: "shell" } });
    expect(noCommand.isError).toBe(true);
    expect(answerOf(noCommand)).toMatchObject({ status: 400, code: "validation_failed" });
    const badPath = await client.callTool({ name: "file_read", arguments: { workspaceId, path: "a/../b" } });
    expect(answerOf(badPath)).toMatchObject({ status: 400, code: "invalid_path" });
    // Dot segments reach the route as they are (a URL would resolve them into another route's path).
    const dots = await client.callTool({ name: "file_write", arguments: { workspaceId, path: "..", content: "x" } });
    expect(answerOf(dots)).toMatchObject({ status: 400, code: "validation_failed" });
    const traversal = await client.callTool({
      name: "file_write",
      arguments: { workspaceId, path: "../../../billing/plan", content: '{"plan":"pro"}' },
    });
    expect(answerOf(traversal)).toMatchObject({ status: 400, code: "invalid_path" });
    const dotId = await client.callTool({ name: "file_list", arguments: { workspaceId: ".." } });
    expect(answerOf(dotId)).toMatchObject({ status: 400, code: "validation_failed" });
    const missing = await client.callTool({ name: "file_read", arguments: { path: "a.txt" } });
    expect(answerOf(missing)).toMatchObject({ status: 400, detail: "missing required argument: workspaceId" });
    const unknown = await client.callTool({ name: "format_disk", arguments: {} });
    expect(answerOf(unknown).detail).toMatch(/no tool named format_disk/);
    // Seven refusals, each one request, and the quotas read that counts itself.
    expect(await apiRequestsUsed(key)).toBe(before + 8);
  });

  it("refuses a missing or wrong credential with 401 before any MCP message is read", async () => {
    await expect(mcpClient(undefined)).rejects.toThrow(/401/);
    await expect(mcpClient("cub_not-a-key")).rejects.toThrow(/401/);
    const response = await call("POST", "/mcp", { json: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("lists and reads workspace files as resources", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    await call("PUT", `/v1/workspaces/${workspaceId}/files/docs/a b.txt`, { key, body: "alpha" });
    const client = await mcpClient(key);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["cubicle://ws/{workspaceId}/{+path}"]);
    const { resources } = await client.listResources();
    const uri = `cubicle://ws/${workspaceId}/docs/a%20b.txt`;
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: "text/plain", text: "alpha" }]);
    await expect(client.readResource({ uri: `cubicle://ws/${workspaceId}/missing.txt` })).rejects.toThrow(/404/);
  });
});
