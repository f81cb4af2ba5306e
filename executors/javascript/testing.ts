/** Test only: runs javascript through the real API (gateway, workspace object, Dynamic Worker). */
import { call, createWorkspace, json, signup } from "../../test/client.ts";

export interface JsResult {
  id: string;
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  result?: unknown;
  durationMs: number;
  usage: { meter: string; quantity: number } | null;
}

export async function workspace(): Promise<{ key: string; workspaceId: string }> {
  const { key } = await signup();
  return { key, workspaceId: await createWorkspace(key) };
}

export async function put(ws: { key: string; workspaceId: string }, path: string, body: string): Promise<void> {
  const response = await call("PUT", `/v1/workspaces/${ws.workspaceId}/files/${path}`, { key: ws.key, body });
  if (!response.ok) throw new Error(`PUT ${path}: ${response.status} ${await response.text()}`);
}

export async function get(ws: { key: string; workspaceId: string }, path: string): Promise<string> {
  const response = await call("GET", `/v1/workspaces/${ws.workspaceId}/files/${path}`, { key: ws.key });
  return new TextDecoder().decode(await response.arrayBuffer());
}

/** Runs `code` in `ws` (a fresh workspace when absent) and answers the exec result. */
export async function js(
  code: string,
  extra: Record<string, unknown> = {},
  ws?: { key: string; workspaceId: string },
): Promise<JsResult> {
  const target = ws ?? (await workspace());
  const response = await call("POST", `/v1/workspaces/${target.workspaceId}/exec`, {
    key: target.key,
    json: { executor: "javascript", code, ...extra },
  });
  if (response.status !== 200 && response.status !== 202) {
    throw new Error(`exec answered ${response.status}: ${await response.text()}`);
  }
  return json<JsResult>(response);
}
