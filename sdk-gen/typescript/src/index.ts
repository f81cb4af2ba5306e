/**
 * `@cubicle/sdk`. Start with `new Cubicle({ apiKey, baseUrl })`; errors are the classes of
 * `errors.gen.ts` (one per status and per problem code). The generated operations and types
 * are exported too, for anything the resources do not wrap.
 */

export type { Client } from "./generated/client/index.ts";
export * from "./generated/errors.gen.ts";
export * from "./generated/index.ts";
/** The workspace record; `Workspace` is the handle around it (`ws.data`). */
export type { Workspace as WorkspaceData } from "./generated/types.gen.ts";
export { InvalidApiKeyError } from "./lib/apiKey.ts";
export { type ClientOptions, Cubicle, DEFAULT_BASE_URL } from "./lib/Cubicle.ts";
export { type CubicleOptions, createCubicle } from "./lib/client.ts";
export type { IdempotentOptions, RequestOptions } from "./lib/core.ts";
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  CubicleError,
  type FieldError,
  type ProblemBody,
} from "./lib/errors.ts";
export type { ExecFn, ExecParams } from "./lib/exec.ts";
export { type ExecEvent, ExecStream, type ExitEvent, type OutputChunk } from "./lib/execStream.ts";
export type { FileData } from "./lib/files.ts";
export { type Page, Pager } from "./lib/pagination.ts";
export { isRetrySafe, retryLimits } from "./lib/retry.ts";
export { Snapshots, type VersionRef } from "./lib/versions.ts";
export { Workspace } from "./lib/workspaces.ts";
