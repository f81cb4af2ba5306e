/**
 * Builds the services a request uses from the Worker's bindings. Routes reach storage only
 * through these, and every tenant-owned operation takes the tenant id as its first argument.
 */
import { Accounts } from "../../tenants/account/accounts.ts";
import { ApiKeys } from "../../tenants/account/apiKeys.ts";
import { Idempotency } from "../../tenants/account/idempotency.ts";
import { SigningKeys } from "../../tenants/account/signingKeys.ts";
import { Tokens } from "../../tenants/account/tokens.ts";
import { Usage } from "../../tenants/account/usage.ts";
import { Artifacts } from "../../tenants/artifacts/artifacts.ts";
import { database } from "../../tenants/db.ts";
import { Shares } from "../../tenants/shares/shares.ts";
import { Workspaces } from "../../tenants/workspace/workspaces.ts";

export function services(env: Env) {
  const db = database(env.DB);
  const apiKeys = new ApiKeys(db);
  const signingKeys = new SigningKeys(db);
  return {
    accounts: new Accounts(db),
    apiKeys,
    /** The JWT signing keys: scoped tokens, share links and dashboard sessions. */
    signingKeys,
    tokens: new Tokens(signingKeys, apiKeys),
    workspaces: new Workspaces(db, env.WORKSPACE, env.TENANT),
    usage: new Usage(env.TENANT, db),
    artifacts: new Artifacts(db, env.ARTIFACTS),
    shares: new Shares(db, signingKeys, apiKeys),
    /** Stored answers to `Idempotency-Key` retries (middleware/idempotency.ts). */
    idempotency: new Idempotency(db),
  };
}

/** What `provideServices` (middleware/services.ts) puts on every request as `c.var.services`. */
export type Services = ReturnType<typeof services>;
