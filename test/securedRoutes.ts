/**
 * Every authenticated operation of the API, with what it requires: the table the shared
 * security suite (api/src/routes/routes.security.*.test.ts) runs each way a credential can be
 * wrong against, one file per kind of refusal. A route added without a row here fails
 * routes.security.coverage.test.ts, which compares this table with the OpenAPI document.
 */
import type { Scope } from "../tenants/account/scopes.ts";
import type { CallOptions } from "./client.ts";

export interface SecuredRoute {
  operationId: string;
  method: string;
  /** `{workspaceId}` and `{keyId}` are filled from resources made fresh for each check. */
  path: string;
  /** The scope the route requires; null when any valid credential will do. */
  scope: Scope | null;
  /**
   * Routes that reach the whole account refuse (403) credentials confined to some workspaces
   * or a path prefix: `"key"` routes (key management) also refuse every scoped token.
   */
  accountWide?: "key" | "any";
  request?: Omit<CallOptions, "key">;
}

export const SECURED_ROUTES: SecuredRoute[] = [
  { operationId: "getAccount", method: "GET", path: "/v1/account", scope: null },
  { operationId: "listKeys", method: "GET", path: "/v1/keys", scope: "keys:manage", accountWide: "key" },
  {
    operationId: "createKey",
    method: "POST",
    path: "/v1/keys",
    scope: "keys:manage",
    accountWide: "key",
    request: { json: { name: "k" } },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/v1/keys/{keyId}",
    scope: "keys:manage",
    accountWide: "key",
  },
  {
    operationId: "createToken",
    method: "POST",
    path: "/v1/tokens",
    scope: null,
    request: { json: { scopes: ["workspaces:read"], ttlSeconds: 60 } },
  },
  {
    operationId: "createWorkspace",
    method: "POST",
    path: "/v1/workspaces",
    scope: "workspaces:write",
    request: { json: {} },
  },
  { operationId: "listWorkspaces", method: "GET", path: "/v1/workspaces", scope: "workspaces:read" },
  { operationId: "getWorkspace", method: "GET", path: "/v1/workspaces/{workspaceId}", scope: "workspaces:read" },
  {
    operationId: "updateWorkspace",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}",
    scope: "workspaces:write",
    request: { json: { name: "renamed" } },
  },
  { operationId: "deleteWorkspace", method: "DELETE", path: "/v1/workspaces/{workspaceId}", scope: "workspaces:write" },
  {
    operationId: "putFile",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/files/dir/new.txt",
    scope: "workspaces:write",
    request: { body: "written" },
  },
  {
    operationId: "getFile",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/files/seed.txt",
    scope: "workspaces:read",
  },
  {
    operationId: "headFile",
    method: "HEAD",
    path: "/v1/workspaces/{workspaceId}/files/seed.txt",
    scope: "workspaces:read",
  },
  {
    operationId: "deleteFile",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/files/seed.txt",
    scope: "workspaces:write",
  },
  {
    operationId: "listPath",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/fs/list?path=/",
    scope: "workspaces:read",
  },
  {
    operationId: "listChanges",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/fs/changes",
    scope: "workspaces:read",
  },
  ...fsOp("statPath", "stat", "workspaces:read", { path: "/seed.txt" }),
  ...fsOp("mkdir", "mkdir", "workspaces:write", { path: "/made" }),
  ...fsOp("move", "move", "workspaces:write", { from: "/seed.txt", to: "/moved.txt" }),
  ...fsOp("copy", "copy", "workspaces:write", { from: "/seed.txt", to: "/copied.txt" }),
  ...fsOp("symlink", "symlink", "workspaces:write", { target: "seed.txt", path: "/another-link" }),
  ...fsOp("readlink", "readlink", "workspaces:read", { path: "/link" }),
  ...fsOp("chmod", "chmod", "workspaces:write", { path: "/seed.txt", mode: 0o600 }),
  ...fsOp("chown", "chown", "workspaces:write", { path: "/seed.txt", uid: 0 }),
  ...fsOp("utimes", "utimes", "workspaces:write", { path: "/seed.txt", mtimeNs: "1" }),
  ...fsOp("link", "link", "workspaces:write", { existing: "/seed.txt", path: "/hard-link" }),
  ...fsOp("truncate", "truncate", "workspaces:write", { path: "/seed.txt", size: 1 }),
  ...fsOp("grep", "grep", "workspaces:read", { pattern: "seed", path: "/" }),
  ...fsOp("find", "find", "workspaces:read", { path: "/", name: "*.txt" }),
  ...fsOp("batch", "batch", "workspaces:write", { ops: [{ op: "write", path: "/b.txt", content: "b" }] }),
  {
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/exec",
    scope: "exec",
    request: { json: { executor: "shell", command: "echo hi" } },
  },
  { operationId: "listExecs", method: "GET", path: "/v1/workspaces/{workspaceId}/execs", scope: "exec" },
  {
    operationId: "createSnapshot",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/snapshots",
    scope: "workspaces:write",
    request: { json: { name: "s" } },
  },
  {
    operationId: "listSnapshots",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/snapshots",
    scope: "workspaces:read",
  },
  {
    operationId: "getSnapshot",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/snapshots/{snapshotId}",
    scope: "workspaces:read",
  },
  {
    operationId: "deleteSnapshot",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/snapshots/{snapshotId}",
    scope: "workspaces:write",
  },
  {
    operationId: "restoreWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/restore",
    scope: "workspaces:write",
    request: { json: { snapshotId: "{snapshotId}" } },
  },
  {
    operationId: "forkWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/fork",
    scope: "workspaces:write",
    request: { json: { snapshotId: "{snapshotId}" } },
  },
  {
    operationId: "diffWorkspace",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/diff?from={snapshotId}",
    scope: "workspaces:read",
  },
  {
    operationId: "fileHistory",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/history?path=/seed.txt",
    scope: "workspaces:read",
  },
  { operationId: "getExec", method: "GET", path: "/v1/workspaces/{workspaceId}/execs/{execId}", scope: "exec" },
  {
    operationId: "getExecOutput",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/execs/{execId}/output",
    scope: "exec",
  },
  {
    operationId: "killExec",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/execs/{execId}/kill",
    scope: "exec",
    request: { json: {} },
  },
  {
    operationId: "publishArtifact",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/artifacts",
    scope: "workspaces:read",
    request: { json: { path: "/seed.txt" } },
  },
  { operationId: "listArtifacts", method: "GET", path: "/v1/artifacts", scope: "workspaces:read" },
  { operationId: "getArtifact", method: "GET", path: "/v1/artifacts/{artifactId}", scope: "workspaces:read" },
  {
    operationId: "downloadArtifact",
    method: "GET",
    path: "/v1/artifacts/{artifactId}/download",
    scope: "workspaces:read",
  },
  {
    operationId: "createShare",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/shares",
    scope: "workspaces:read",
    request: { json: { path: "/seed.txt" } },
  },
  { operationId: "listShares", method: "GET", path: "/v1/workspaces/{workspaceId}/shares", scope: "workspaces:read" },
  { operationId: "revokeShare", method: "DELETE", path: "/v1/shares/{shareId}", scope: "workspaces:read" },
  { operationId: "getUsage", method: "GET", path: "/v1/usage", scope: "billing:read", accountWide: "any" },
  {
    operationId: "listUsageEvents",
    method: "GET",
    path: "/v1/usage/events",
    scope: "billing:read",
    accountWide: "any",
  },
  { operationId: "getQuotas", method: "GET", path: "/v1/quotas", scope: "billing:read", accountWide: "any" },
  { operationId: "getBilling", method: "GET", path: "/v1/billing", scope: "billing:read", accountWide: "any" },
  {
    operationId: "changePlan",
    method: "PUT",
    path: "/v1/billing/plan",
    scope: "billing:manage",
    accountWide: "any",
    request: { json: { plan: "free" } },
  },
  {
    operationId: "setSpendCap",
    method: "PUT",
    path: "/v1/billing/spend-cap",
    scope: "billing:manage",
    accountWide: "any",
    request: { json: { amountMicros: null } },
  },
  {
    operationId: "listInvoices",
    method: "GET",
    path: "/v1/billing/invoices",
    scope: "billing:read",
    accountWide: "any",
  },
  {
    operationId: "getUpcomingInvoice",
    method: "GET",
    path: "/v1/billing/invoices/upcoming",
    scope: "billing:read",
    accountWide: "any",
  },
];

function fsOp(operationId: string, op: string, scope: Scope, json: unknown): SecuredRoute[] {
  return [{ operationId, method: "POST", path: `/v1/workspaces/{workspaceId}/fs/${op}`, scope, request: { json } }];
}
