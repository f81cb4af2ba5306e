/**
 * Who may manage API keys, and which keys. Pure, so the rule is tested without a request,
 * and shared by `/v1/keys` and the dashboard's keys page so both hold it.
 *
 * The rule (docs/auth.md): key management needs an account-wide API key. A key restricted
 * to some workspaces, or any scoped token, would otherwise reach past its confinement: a
 * list names every key's workspaces, and a revocation can end any key. Among account-wide
 * keys, a key may create only keys no wider than itself (scopes within its own), and may
 * revoke exactly the keys it could have created, so a narrow key cannot end a wider one.
 */
import type { Principal, Scope } from "./scopes.ts";

/** Why `principal` may not list, create or revoke keys at all, or null when it may. */
export function keyManagementRefusal(principal: Principal): string | null {
  if (principal.kind === "token") {
    return "key management needs an API key; a scoped token cannot list, create or revoke keys (a key would outlive it)";
  }
  if (principal.workspaceIds !== null) {
    return "key management is account-wide; this key is restricted to some workspaces";
  }
  if (principal.pathPrefix !== null) {
    return `key management is account-wide; this credential is confined to ${principal.pathPrefix}`;
  }
  return null;
}

/** Why `principal` may not hold a key with `scopes` (create or revoke it), or null when it may. */
export function widerScopesRefusal(principal: Principal, scopes: readonly Scope[]): string | null {
  const wider = scopes.filter((scope) => !principal.scopes.includes(scope));
  return wider.length === 0 ? null : wider.join(", ");
}

/**
 * Why `principal` may not revoke a key with these scopes, or null when it may: only a key it
 * could itself have created. Its own key is always within that, so a key can retire itself.
 */
export function revokeRefusal(principal: Principal, target: { id: string; scopes: readonly Scope[] }): string | null {
  const refused = keyManagementRefusal(principal);
  if (refused) return refused;
  const wider = widerScopesRefusal(principal, target.scopes);
  if (wider) return `cannot revoke ${target.id}: it has scopes this credential lacks (${wider})`;
  return null;
}
