/**
 * The Worker entry: the gateway app, the Durable Object classes it binds, and the
 * entrypoints its objects reach through `ctx.exports` (the executors' egress gateway).
 */
import { createApp } from "./app.ts";
import { crashResponse } from "./handleErrors.ts";

export { Computer } from "../../executors/container/Computer.ts";
export { EgressGateway } from "../../tenants/account/EgressGateway.ts";
export { TenantDO } from "../../tenants/account/TenantDO.ts";
export { WorkspaceDO } from "../../tenants/workspace/WorkspaceDO.ts";

const app = createApp();

export default {
  async fetch(request, env, ctx) {
    try {
      return await app.fetch(request, env, ctx);
    } catch (error) {
      return crashResponse(error);
    }
  },
} satisfies ExportedHandler<Env>;
