/**
 * `/mcp` as an agent framework meets it: the official MCP SDK's client over Streamable HTTP
 * against the platform `npm start` runs, with an API key as the Bearer credential.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let key: string;
let auth: Record<string, string>;

async function connect(credential: string | undefined): Promise<Client> {
  const headers: Record<string, string> = credential ? { authorization: `Bearer ${credential}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${platform.url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function structured(result: object): Record<string, unknown> {
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

beforeAll(async () => {
  ({ key, auth } = await signUp(platform.url, `mcp-${Date.now()}@example.com`));
});

describe("/mcp over Streamable HTTP", () => {
  it("initializes and lists the tools", async () => {
    const client = await connect(key);
    expect(client.getServerVersion()).toMatchObject({ name: "cubicle" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain("workspace");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["workspace_create", "exec", "file_read", "file_write", "grep", "find", "usage"]),
    );
    await client.close();
  });

  it("creates a workspace, round-trips a file, and runs a container command with progress", async () => {
    const client = await connect(key);
    const created = await client.callTool({ name: "workspace_create", arguments: { name: "from-mcp" } });
    const workspaceId = structured(created).id as string;
    expect(workspaceId).toMatch(/^ws_/);
    await client.callTool({
      name: "file_write",
      arguments: { workspaceId, path: "src/hello.py", content: "print('hello from python')\n" },
    });
    const read = await client.callTool({ name: "file_read", arguments: { workspaceId, path: "src/hello.py" } });
    expect(read.content).toEqual([{ type: "text", text: "print('hello from python')\n" }]);

    const progress: string[] = [];
    const run = await client.callTool(
      { name: "exec", arguments: { workspaceId, executor: "container", command: "python3 src/hello.py; exit 7" } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? ""), timeout: 120_000 },
    );
    expect(structured(run)).toMatchObject({ exitCode: 7, stdout: "hello from python\n" });
    expect(progress.join("")).toBe("hello from python\n");

    // The file the tool wrote is the workspace's, over REST too.
    const rest = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/files/src/hello.py`, { headers: auth });
    expect(await rest.text()).toBe("print('hello from python')\n");
    await client.close();
  }, 180_000);

  it("refuses a missing or revoked credential", async () => {
    await expect(connect(undefined)).rejects.toThrow(/401/);
    await expect(connect("cub_0000000000000000000000000000000000000000")).rejects.toThrow(/401/);
  });

  it("refuses a write through a read-only token, and leaves the file alone", async () => {
    const workspaceId = await newWorkspace(platform.url, auth);
    const minted = await fetch(`${platform.url}/v1/tokens`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["workspaces:read"], workspaceId, ttlSeconds: 300 }),
    });
    const { token } = (await minted.json()) as { token: string };
    const client = await connect(token);
    const refused = await client.callTool({
      name: "file_write",
      arguments: { workspaceId, path: "nope.txt", content: "no" },
    });
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toMatchObject({ status: 403, code: "forbidden" });
    const listed = await client.callTool({ name: "file_list", arguments: { workspaceId } });
    expect(structured(listed)).toMatchObject({ entries: [] });
    await client.close();
  });
});
