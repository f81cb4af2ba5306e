/**
 * The one hand-written entry to the generated SDK: a client bound to one Cubicle server and,
 * once the caller has one, one API key. Each call to `createCubicle` makes its own client,
 * so two keys (or two servers) never share configuration; pass it to any operation as
 * `{ client }`, e.g. `listWorkspaces({ client: cubicle })`.
 */
import { type Client, createClient, createConfig } from "../generated/client/index.ts";
import { checkApiKey } from "./apiKey.ts";

export type CubicleOptions = {
  /** Where the API is served, e.g. `http://127.0.0.1:8787` for `npm start`; no trailing `/v1`. */
  baseUrl: string;
  /** An API key (`cub_…`), sent as `Authorization: Bearer <apiKey>`. Leave it out to call `signup`. */
  apiKey?: string;
  /** The fetch to send requests with; the global one by default. Tests pass a recorder. */
  fetch?: typeof globalThis.fetch;
};

export function createCubicle({ baseUrl, apiKey, fetch }: CubicleOptions): Client {
  const headers: Record<string, string> =
    apiKey === undefined ? {} : { Authorization: `Bearer ${checkApiKey(apiKey)}` };
  return createClient(createConfig({ baseUrl, headers, ...(fetch === undefined ? {} : { fetch }) }));
}
