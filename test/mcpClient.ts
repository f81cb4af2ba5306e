/**
 * The official MCP SDK client, connected over Streamable HTTP to `/mcp` of the gateway in
 * workerd (requests go through the real Worker entry, like client.ts's `call`).
 */
import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function mcpClient(key: string | undefined): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://cubicle.test/mcp"), {
    requestInit: key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });
  const client = new Client({ name: "cubicle-tests", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool result's structured answer, or its text when it has none. */
export function answerOf(result: object): Record<string, unknown> {
  const { structuredContent, content } = result as { structuredContent?: unknown; content?: { text?: string }[] };
  if (structuredContent) return structuredContent as Record<string, unknown>;
  return { text: content?.map((c) => c.text ?? "").join("") };
}
