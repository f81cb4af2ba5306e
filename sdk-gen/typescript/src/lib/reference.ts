/**
 * The hand-written surface users program against, gathered for the generated API reference
 * (`npm run gen:sdk` → docs/sdk/typescript.md). The generated operations and types are
 * described by the OpenAPI reference at /docs instead.
 *
 * @module @cubicle/sdk
 */
export { Account, Keys, Tokens } from "./account.ts";
export { InvalidApiKeyError } from "./apiKey.ts";
export { Artifacts, Shares } from "./artifacts.ts";
export { Billing, Quotas, Usage } from "./billing.ts";
export { type ClientOptions, Cubicle } from "./Cubicle.ts";
export type { IdempotentOptions, RequestOptions } from "./core.ts";
export { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, CubicleError } from "./errors.ts";
export { type ExecFn, Execs } from "./exec.ts";
export { type ExecEvent, ExecStream, type ExitEvent, type OutputChunk } from "./execStream.ts";
export { type FileData, Files } from "./files.ts";
export { type Page, Pager } from "./pagination.ts";
export { Workspace, Workspaces } from "./workspaces.ts";
