/**
 * The rule that a credential derived from another is never wider than it, for scoped
 * tokens: fewer or equal scopes, one of its workspaces, a path at or under its prefix, and
 * an expiry no later than its own. Pure, so the rule is tested without a request.
 */
import { isWithin } from "../workspace/paths.ts";
import { accountLimits } from "./limits.ts";
import type { Principal, Scope } from "./scopes.ts";

export interface TokenRequest {
  scopes: readonly Scope[];
  workspaceId?: string | undefined;
  /** A normalized workspace path; `/` is the whole workspace. */
  pathPrefix?: string | undefined;
  ttlSeconds: number;
}

/** What a token will carry, after narrowing. */
export interface TokenGrant {
  scopes: Scope[];
  workspaceId: string | null;
  pathPrefix: string | null;
  issuedAtS: number;
  expiresAtS: number;
}

export type Narrowed = { ok: true; grant: TokenGrant } | { ok: false; detail: string };

/**
 * Checks a request against the credential asking; refusals say what is too wide. A TTL
 * reaching past the parent's own expiry is clamped to it rather than refused: the response's
 * `expiresAt` says so, and a caller cannot know to the second how long its parent has left.
 */
export function narrowToken(parent: Principal, request: TokenRequest, nowMs: number): Narrowed {
  const wider = request.scopes.filter((scope) => !parent.scopes.includes(scope));
  if (wider.length > 0) return { ok: false, detail: `cannot grant scopes this credential lacks: ${wider.join(", ")}` };
  const workspaceId = request.workspaceId ?? null;
  if (parent.workspaceIds && workspaceId === null) {
    return { ok: false, detail: "this credential is restricted to some workspaces; name one in `workspaceId`" };
  }
  if (parent.workspaceIds && workspaceId !== null && !parent.workspaceIds.includes(workspaceId)) {
    return { ok: false, detail: `cannot grant a workspace this credential lacks: ${workspaceId}` };
  }
  const pathPrefix = request.pathPrefix ?? null;
  if (parent.pathPrefix !== null) {
    if (pathPrefix === null) {
      return {
        ok: false,
        detail: `this credential is confined to ${parent.pathPrefix}; name a \`pathPrefix\` at or under it`,
      };
    }
    if (!isWithin(pathPrefix, parent.pathPrefix)) {
      return {
        ok: false,
        detail: `cannot grant ${pathPrefix}: it is outside this credential's prefix ${parent.pathPrefix}`,
      };
    }
  }
  const { tokenTtlSecondsMin, tokenTtlSecondsMax } = accountLimits;
  if (request.ttlSeconds < tokenTtlSecondsMin || request.ttlSeconds > tokenTtlSecondsMax) {
    return { ok: false, detail: `\`ttlSeconds\` must be ${tokenTtlSecondsMin} to ${tokenTtlSecondsMax}` };
  }
  const issuedAtS = Math.floor(nowMs / 1000);
  const parentEndS =
    parent.expiresAt === null ? Number.POSITIVE_INFINITY : Math.floor(Date.parse(parent.expiresAt) / 1000);
  return {
    ok: true,
    grant: {
      scopes: [...request.scopes],
      workspaceId,
      // The whole workspace is no confinement at all.
      pathPrefix: pathPrefix === "/" ? null : pathPrefix,
      issuedAtS,
      expiresAtS: Math.min(issuedAtS + request.ttlSeconds, parentEndS),
    },
  };
}
