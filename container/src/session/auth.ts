/**
 * Both directions of the session handshake. The object proves it holds the shared secret
 * with a short-lived token naming this daemon's workspace; computerd answers with its own
 * token bound to the object's nonce, so a replayed answer is worthless.
 */
import { jwtVerify, SignJWT } from "jose";
import { AUDIENCE_COMPUTERD, AUDIENCE_WORKSPACE, SESSION_TOKEN_TTL_SECONDS } from "../../wire/index.ts";

export type VerifyResult = { ok: true; jti: string } | { ok: false; reason: string };

export async function verifyObjectToken(token: string, secret: Uint8Array, workspace: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ["HS256"],
      audience: AUDIENCE_COMPUTERD,
      subject: workspace,
      maxTokenAge: SESSION_TOKEN_TTL_SECONDS,
      requiredClaims: ["jti", "iat"],
    });
    if (typeof payload.jti !== "string" || payload.jti.length === 0) return { ok: false, reason: "missing jti" };
    return { ok: true, jti: payload.jti };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

export async function answerToken(secret: Uint8Array, workspace: string, nonce: string): Promise<string> {
  return await new SignJWT({ nonce })
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(AUDIENCE_WORKSPACE)
    .setSubject(workspace)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TOKEN_TTL_SECONDS}s`)
    .sign(secret);
}
