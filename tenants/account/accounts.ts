/** Tenants: signup (a tenant and its first key, atomically) and reading the account. */
import { eq } from "drizzle-orm";
import { type Db, nowIso } from "../db.ts";
import { newId } from "../ids.ts";
import { type NewApiKey, prepareKey } from "./apiKeys.ts";
import { apiKeys, tenants } from "./schema.ts";

export interface Tenant {
  id: string;
  email: string;
  name: string | null;
  plan: string;
  createdAt: string;
}

export type SignupResult = { ok: true; tenant: Tenant; apiKey: NewApiKey } | { ok: false; code: "EEXIST" };

export class Accounts {
  constructor(private readonly db: Db) {}

  async signup(email: string, name: string | null): Promise<SignupResult> {
    const normalized = email.trim().toLowerCase();
    const tenant: Tenant = { id: newId("ten"), email: normalized, name, plan: "free", createdAt: nowIso() };
    const { row, created } = await prepareKey(tenant.id, { name: "default" });
    try {
      await this.db.batch([this.db.insert(tenants).values(tenant), this.db.insert(apiKeys).values(row)]);
    } catch (error) {
      // The unique index on email decides, so two racing signups for one address cannot both win.
      if (String(error).includes("UNIQUE")) return { ok: false, code: "EEXIST" };
      throw error;
    }
    return { ok: true, tenant, apiKey: created };
  }

  async get(tenantId: string): Promise<Tenant | null> {
    const row = await this.db.query.tenants.findFirst({ where: eq(tenants.id, tenantId) });
    return row ?? null;
  }
}
