/**
 * Workspace files as MCP resources, `cubicle://ws/<workspaceId>/<path>` (each path segment
 * percent-encoded). Reading one is `GET …/files/<path>`; a page of the list is one
 * `listWorkspaces` call and one `find` per workspace on it, each billed as the request it is.
 */
import { ErrorCode, McpError, type ReadResourceResult, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { decodeUtf8, readAtMost, toBase64 } from "./fileTools.ts";
import { mcpLimits } from "./limits.ts";

export const RESOURCE_TEMPLATE = {
  uriTemplate: "cubicle://ws/{workspaceId}/{+path}",
  name: "Workspace file",
  description: "A file of a workspace, by its path in the workspace (no leading slash).",
} as const;

/** Calls a REST operation by its operationId, through the gateway app. */
export type CallOperation = (operationId: string, args: Record<string, unknown>) => Promise<Response>;

const RESOURCE_NOT_FOUND = -32002;

export function resourceUri(workspaceId: string, path: string): string {
  const segments = path.replace(/^\/+/, "").split("/").map(encodeURIComponent);
  return `cubicle://ws/${encodeURIComponent(workspaceId)}/${segments.join("/")}`;
}

/** The workspace and path a resource URI names, or null when it is not one of ours. */
export function parseResourceUri(uri: string): { workspaceId: string; path: string } | null {
  const match = /^cubicle:\/\/ws\/([^/]+)\/(.+)$/.exec(uri);
  if (!match) return null;
  try {
    const path = (match[2] as string).split("/").map(decodeURIComponent).join("/");
    return { workspaceId: decodeURIComponent(match[1] as string), path };
  } catch {
    return null;
  }
}

/** A page of files across the workspaces this credential reaches, at most `resourcesPageMax`. */
export async function listResources(call: CallOperation, cursor: string | undefined, prefix: string | null) {
  const page = await answer(
    await call("listWorkspaces", { limit: mcpLimits.resourceWorkspacesPageMax, ...(cursor ? { cursor } : {}) }),
  );
  const { data, nextCursor } = page as { data: { id: string; name: string | null }[]; nextCursor: string | null };
  const perWorkspace = Math.max(1, Math.floor(mcpLimits.resourcesPageMax / Math.max(1, data.length)));
  const resources: Resource[] = [];
  for (const workspace of data) {
    const found = await answer(
      await call("find", { workspaceId: workspace.id, path: prefix ?? "/", type: "file", limit: perWorkspace }),
    );
    for (const entry of (found as { entries: { path: string; size: number }[] }).entries) {
      resources.push({
        uri: resourceUri(workspace.id, entry.path),
        name: entry.path,
        title: `${workspace.name ?? workspace.id}: ${entry.path}`,
        size: entry.size,
      });
    }
  }
  return { resources, ...(nextCursor ? { nextCursor } : {}) };
}

export async function readResource(call: CallOperation, uri: string): Promise<ReadResourceResult> {
  const named = parseResourceUri(uri);
  if (!named) throw new McpError(ErrorCode.InvalidParams, `not a workspace file URI: ${RESOURCE_TEMPLATE.uriTemplate}`);
  const response = await call("getFile", named);
  if (!response.ok || !response.body) await answer(response);
  const { bytes, more } = await readAtMost(response.body as ReadableStream<Uint8Array>, mcpLimits.readBytesMax);
  if (more) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `${uri} is larger than ${mcpLimits.readBytesMax} bytes: read it in parts with the file_read tool`,
    );
  }
  const text = decodeUtf8(bytes);
  return {
    contents: [
      text === null
        ? { uri, mimeType: "application/octet-stream", blob: toBase64(bytes) }
        : { uri, mimeType: "text/plain", text },
    ],
  };
}

/** A REST answer's JSON, or the refusal as a JSON-RPC error (resources have no error results). */
async function answer(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => ({}))) as { code?: string; detail?: string };
  if (response.ok) return body;
  const code = response.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidRequest;
  throw new McpError(code, `${response.status} ${body.code ?? "error"}: ${body.detail ?? ""}`, body);
}
