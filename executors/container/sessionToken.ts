/**
 * Session tokens between a workspace object and computerd (see container/wire `hello`):
 * both sides hold the deployment's computerd secret; each proves itself with a short-lived
 * HS256 JWT naming the one workspace, and the daemon's answer echoes the object's nonce so
 * a recorded answer cannot be replayed into another session.
 */
import { jwtVerify, SignJWT } from "jose";
import { AUDIENCE_COMPUTERD, AUDIENCE_WORKSPACE, SESSION_TOKEN_TTL_SECONDS } from "../../container/wire/index.ts";

const key = (secret: string) => new TextEncoder().encode(secret);

/** The object's token for computerd, and the nonce its answer must carry. */
export async function mintSessionToken(secret: string, workspace: string): Promise<{ token: string; nonce: string }> {
  const nonce = crypto.randomUUID();
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setAudience(AUDIENCE_COMPUTERD)
    .setSubject(workspace)
    .setJti(nonce)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TOKEN_TTL_SECONDS}s`)
    .sign(key(secret));
  return { token, nonce };
}

/** Checks computerd's answer: our secret, our workspace, our nonce, fresh. Throws when it is not. */
export async function verifyComputerdAnswer(secret: string, workspace: string, nonce: string, token: string) {
  const { payload } = await jwtVerify(token, key(secret), {
    algorithms: ["HS256"],
    audience: AUDIENCE_WORKSPACE,
    subject: workspace,
    maxTokenAge: `${SESSION_TOKEN_TTL_SECONDS}s`,
  });
  if (payload.nonce !== nonce) throw new Error("computerd answered another session's nonce");
}
