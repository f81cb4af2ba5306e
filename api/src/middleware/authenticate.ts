import type { MiddlewareHandler } from "hono";
import type { VerifyResult } from "../../../tenants/account/apiKeys.ts";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { services } from "../services.ts";

const REASONS: Record<Exclude<VerifyResult, { ok: true }>["reason"], string> = {
  malformed: "the credential is not a Cubicle API key (expected `cub_` and 40 characters)",
  bad_checksum: "the API key's checksum does not match; it was mistyped or truncated",
  unknown: "the API key does not exist",
  revoked: "the API key has been revoked",
  expired: "the API key has expired",
};

/** Verifies `Authorization: Bearer <key>` and sets `principal`; anything else answers 401. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async function authenticateMiddleware(c, next) {
    const header = c.req.header("authorization");
    const challenge = { headers: { "www-authenticate": 'Bearer realm="cubicle"' } };
    if (!header) throw new ApiError("unauthorized", "missing `Authorization: Bearer <api key>` header", challenge);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1])
      throw new ApiError("unauthorized", "the Authorization header must be `Bearer <api key>`", challenge);
    const result = await services(c.env).apiKeys.verify(match[1]);
    if (!result.ok) throw new ApiError("unauthorized", REASONS[result.reason], challenge);
    c.set("principal", result.principal);
    await next();
  };
}
