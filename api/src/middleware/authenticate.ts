/**
 * Authentication: `Authorization: Bearer <credential>`, where a credential is an API key
 * (`cub_…`) or a scoped token (a JWT from `POST /v1/tokens`). Each refusal is a 401 whose
 * detail names exactly what is wrong, so a client can tell a typo from a revoked key.
 */
import type { MiddlewareHandler } from "hono";
import type { VerifyResult } from "../../../tenants/account/apiKeys.ts";
import { looksLikeJwt } from "../../../tenants/account/jwt.ts";
import type { TokenRefusal } from "../../../tenants/account/tokens.ts";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

const KEY_REASONS: Record<Exclude<VerifyResult, { ok: true }>["reason"], string> = {
  malformed: "the credential is neither a Cubicle API key (`cub_` and 40 characters) nor a scoped token (a JWT)",
  bad_checksum: "the API key's checksum does not match; it was mistyped or truncated",
  unknown: "the API key does not exist",
  revoked: "the API key has been revoked",
  expired: "the API key has expired",
};

const TOKEN_REASONS: Record<TokenRefusal, string> = {
  malformed: "the token is malformed: not a JWT of three base64url parts with JSON header and claims",
  algorithm: "the token's algorithm is not allowed: only HS256-signed tokens are accepted (`alg: none` never is)",
  no_kid: "the token does not name its signing key (`kid` header)",
  unknown_key: "the token was signed by a key this API does not have",
  signature: "the token's signature does not verify; it was altered or signed with another secret",
  expired: "the token has expired",
  not_yet_valid: "the token is not valid yet (`nbf`)",
  audience: "the token is not meant for this API (`aud` must be `cubicle:api`)",
  issuer: "the token was not issued by Cubicle (`iss` must be `cubicle`)",
  type: "the token is not an access token (`typ` header must be `at+jwt`)",
  claims: "the token's claims are missing or malformed",
  parent_unknown: "the API key this token was minted from does not exist",
  parent_revoked: "the API key this token was minted from has been revoked",
  parent_expired: "the API key this token was minted from has expired",
  wider_than_parent: "the token grants more than the API key it was minted from",
};

/** Verifies the bearer credential and sets `principal`; anything else answers 401. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async function authenticateMiddleware(c, next) {
    const header = c.req.header("authorization");
    const challenge = { headers: { "www-authenticate": 'Bearer realm="cubicle"' } };
    if (!header) {
      throw new ApiError("unauthorized", "missing `Authorization: Bearer <api key or token>` header", challenge);
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) {
      throw new ApiError("unauthorized", "the Authorization header must be `Bearer <api key or token>`", challenge);
    }
    const credential = match[1];
    const { apiKeys, tokens } = c.var.services;
    if (!credential.startsWith("cub_") && looksLikeJwt(credential)) {
      const result = await tokens.verify(credential);
      if (!result.ok) throw new ApiError("unauthorized", TOKEN_REASONS[result.reason], challenge);
      c.set("principal", result.principal);
    } else {
      const result = await apiKeys.verify(credential);
      if (!result.ok) throw new ApiError("unauthorized", KEY_REASONS[result.reason], challenge);
      c.set("principal", result.principal);
    }
    await next();
  };
}
