/** `cubicle.account`, `cubicle.keys` and `cubicle.tokens`: who you are and your credentials. */
import { createKey, createToken, getAccount, listKeys, revokeKey } from "../generated/sdk.gen.ts";
import type { ApiKey, CreateKeyData, CreateTokenData, NewApiKey, Tenant } from "../generated/types.gen.ts";
import type { Core, IdempotentOptions, RequestOptions } from "./core.ts";
import { Pager } from "./pagination.ts";

export class Account {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  async get(options: RequestOptions = {}): Promise<Tenant> {
    const { data } = await getAccount(this.core.options(options));
    return data as Tenant;
  }
}

export class Keys {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  /** Your keys, never their secrets. */
  list(options: RequestOptions & { limit?: number } = {}): Pager<ApiKey> {
    return new Pager(async (cursor) => {
      const { data } = await listKeys({ ...this.core.options(options), query: { limit: options.limit, cursor } });
      return { items: data.data, nextCursor: data.nextCursor };
    });
  }

  /** A new key; its secret (`key`) is in this answer only. */
  async create(body: CreateKeyData["body"], options: IdempotentOptions = {}): Promise<NewApiKey> {
    const { data } = await createKey({ ...this.core.idempotent(options), body });
    return data as NewApiKey;
  }

  /** Revokes a key; it stops working within seconds. */
  async revoke(keyId: string, options: RequestOptions = {}): Promise<void> {
    await revokeKey({ ...this.core.options(options), path: { keyId } });
  }
}

export class Tokens {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  /** A short-lived JWT no wider than the credential that asks for it. */
  async create(body: CreateTokenData["body"], options: RequestOptions = {}) {
    const { data } = await createToken({ ...this.core.options(options), body });
    return data;
  }
}
