/**
 * Signed JWTs over the signing keyring, for every credential the platform issues as one:
 * scoped tokens, share links and dashboard sessions. Each kind has its own
 * audience and `typ` header, so one kind can never be replayed as another.
 *
 * Verification accepts HS256 only — an unsigned `alg: none` token, or one claiming any
 * other algorithm, is refused before a key is looked at — and names the reason a token
 * is refused, so the 401 can say precisely what is wrong.
 */
import { errors, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { accountLimits } from "./limits.ts";
import type { SigningKeys } from "./signingKeys.ts";

export const ISSUER = "cubicle";
const ALGORITHM = "HS256";

/** What a kind of JWT is checked against; a token of one kind fails as another. */
export interface JwtKind {
  audience: string;
  /** The `typ` header (RFC 8725 §3.11: explicit typing). */
  type: string;
}

export type JwtRefusal =
  | "malformed"
  | "algorithm"
  | "no_kid"
  | "unknown_key"
  | "signature"
  | "expired"
  | "not_yet_valid"
  | "audience"
  | "issuer"
  | "type"
  | "claims";

export type JwtVerified = { ok: true; payload: JWTPayload } | { ok: false; reason: JwtRefusal };

/** Three base64url parts; the signature may be empty, so `alg: none` gets its own answer. */
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a credential is shaped like a JWT at all (as opposed to an API key). */
export function looksLikeJwt(credential: string): boolean {
  return COMPACT.test(credential);
}

export async function signJwt(
  keys: SigningKeys,
  kind: JwtKind,
  claims: JWTPayload & { sub: string; jti: string },
  times: { issuedAtS: number; expiresAtS: number },
): Promise<string> {
  const key = await keys.current();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, kid: key.id, typ: kind.type })
    .setIssuer(ISSUER)
    .setAudience(kind.audience)
    .setIssuedAt(times.issuedAtS)
    .setExpirationTime(times.expiresAtS)
    .sign(key.secret);
}

class NoKid extends Error {}
class UnknownKey extends Error {}

export async function verifyJwt(keys: SigningKeys, kind: JwtKind, token: string, nowMs: number): Promise<JwtVerified> {
  if (token.length > accountLimits.tokenLengthMax || !looksLikeJwt(token)) return { ok: false, reason: "malformed" };
  try {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        if (typeof header.kid !== "string") throw new NoKid();
        const key = await keys.byId(header.kid);
        if (!key) throw new UnknownKey();
        return key.secret;
      },
      {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: kind.audience,
        typ: kind.type,
        requiredClaims: ["sub", "jti", "iat", "exp"],
        currentDate: new Date(nowMs),
      },
    );
    return { ok: true, payload };
  } catch (error) {
    return { ok: false, reason: refusal(error) };
  }
}

function refusal(error: unknown): JwtRefusal {
  if (error instanceof NoKid) return "no_kid";
  if (error instanceof UnknownKey) return "unknown_key";
  if (error instanceof errors.JOSEAlgNotAllowed) return "algorithm";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature";
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    const byClaim: Record<string, JwtRefusal> = { aud: "audience", iss: "issuer", typ: "type", nbf: "not_yet_valid" };
    return byClaim[error.claim] ?? "claims";
  }
  // JWSInvalid, JWTInvalid, JOSENotSupported, and undecodable parts: not a token of ours.
  return "malformed";
}
