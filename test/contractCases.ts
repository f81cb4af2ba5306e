/**
 * Requests the server refuses, each with the rule that refuses it, for two tests that must
 * agree: api/src/routes/contract.test.ts sends them to the gateway and expects 400, and
 * openapi/contract.test.ts checks that openapi/openapi.json refuses them too, so a typed
 * client learns the rule from the document instead of from a 400 (issue 18, items 14, 16).
 * Plain data: both the workers and the node project import it.
 */

export interface ContractCase {
  why: string;
  operationId: string;
  method: "GET" | "POST" | "PUT";
  /** With `{ws}` for the test's workspace id and `{path}` for a file path parameter. */
  path: string;
  /** Where the broken value is. */
  part: "body" | "header" | "query" | "path";
  /** The name of the header, query or path parameter (for `part` other than body). */
  name?: string;
  /** The broken value: the whole JSON body, or the parameter's text. */
  value: unknown;
  /** A body that goes with a broken header (the rest of the request is valid). */
  body?: unknown;
}

const shell = { executor: "shell", command: "true" };

export const REFUSED: ContractCase[] = [
  // Item 14: the two requests that answered 500.
  {
    why: "an empty include glob",
    operationId: "grep",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/grep",
    part: "body",
    value: { pattern: "hello", include: [""] },
  },
  {
    why: "content that is not base64",
    operationId: "batch",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/batch",
    part: "body",
    value: { ops: [{ op: "write", path: "/x.bin", contentBase64: "!!" }] },
  },
  // Item 16: rules that were enforced but not stated.
  {
    why: "a control character in a path",
    operationId: "statPath",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/stat",
    part: "body",
    value: { path: "/a\u0001b" },
  },
  {
    why: "an empty path segment",
    operationId: "statPath",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/stat",
    part: "body",
    value: { path: "/a//b" },
  },
  {
    why: "a `..` segment",
    operationId: "statPath",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/stat",
    part: "body",
    value: { path: "/a/../b" },
  },
  {
    why: "a name of 256 characters",
    operationId: "statPath",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/stat",
    part: "body",
    value: { path: `/${"n".repeat(256)}` },
  },
  {
    why: "a control character in a file's URL path",
    operationId: "getFile",
    method: "GET",
    path: "/v1/workspaces/{ws}/files/{path}",
    part: "path",
    name: "path",
    value: "a\u0001b",
  },
  {
    why: "an empty segment in a listing's path",
    operationId: "listPath",
    method: "GET",
    path: "/v1/workspaces/{ws}/fs/list",
    part: "query",
    name: "path",
    value: "/a//b",
  },
  {
    why: "moving the root",
    operationId: "move",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/move",
    part: "body",
    value: { from: "/", to: "/x" },
  },
  {
    why: "moving onto the root",
    operationId: "move",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/move",
    part: "body",
    value: { from: "/f", to: "/" },
  },
  {
    why: "copying the root",
    operationId: "copy",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/copy",
    part: "body",
    value: { from: "/", to: "/x" },
  },
  {
    why: "a symlink at the root",
    operationId: "symlink",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/symlink",
    part: "body",
    value: { target: "f", path: "/" },
  },
  {
    why: "a NUL in a symlink's target",
    operationId: "symlink",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/symlink",
    part: "body",
    value: { target: "a\u0000b", path: "/l" },
  },
  {
    why: "deleting the root in a batch",
    operationId: "batch",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/batch",
    part: "body",
    value: { ops: [{ op: "delete", path: "/" }] },
  },
  {
    why: "a truncate past the file size limit",
    operationId: "truncate",
    method: "POST",
    path: "/v1/workspaces/{ws}/fs/truncate",
    part: "body",
    value: { path: "/f", size: 2 * 1024 ** 3 + 1 },
  },
  {
    why: "a shell run without `command`",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { executor: "shell" },
  },
  {
    why: "a javascript run with `command` instead of `code`",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { executor: "javascript", command: "echo hi" },
  },
  {
    why: "an empty `cwd`",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { ...shell, cwd: "" },
  },
  {
    why: "a `cwd` beside /tmp rather than under it",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { ...shell, cwd: "/tmpx" },
  },
  {
    why: "a `cwd` outside /workspace and /tmp",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { ...shell, cwd: "/etc" },
  },
  {
    why: "an environment variable name that is not one",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { ...shell, env: { "1BAD": "x" } },
  },
  {
    why: "an allow-list entry with a space",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "body",
    value: { ...shell, egress: { allow: ["a b"] } },
  },
  {
    why: "an Idempotency-Key with a space",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "header",
    name: "idempotency-key",
    value: "has space",
    body: shell,
  },
  {
    why: "an Idempotency-Key of 256 characters",
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{ws}/exec",
    part: "header",
    name: "idempotency-key",
    value: "k".repeat(256),
    body: shell,
  },
  {
    why: "a metadata key with a space",
    operationId: "createWorkspace",
    method: "POST",
    path: "/v1/workspaces",
    part: "body",
    value: { metadata: { "bad key": "x" } },
  },
  {
    why: "33 metadata keys",
    operationId: "createWorkspace",
    method: "POST",
    path: "/v1/workspaces",
    part: "body",
    value: { metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, "v"])) },
  },
  {
    why: "a timestamp with a lowercase `t`",
    operationId: "createKey",
    method: "POST",
    path: "/v1/keys",
    part: "body",
    value: { name: "k", expiresAt: "2099-01-01t00:00:00Z" },
  },
  {
    why: "an event cursor that is not base64url",
    operationId: "listUsageEvents",
    method: "GET",
    path: "/v1/usage/events",
    part: "query",
    name: "cursor",
    value: "not a cursor!",
  },
];
