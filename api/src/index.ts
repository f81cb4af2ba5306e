/** The Worker entry: the gateway app and the Durable Object classes it binds. */
import { createApp } from "./app.ts";

export { TenantDO } from "../../tenants/account/TenantDO.ts";
export { WorkspaceDO } from "../../tenants/workspace/WorkspaceDO.ts";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
