/**
 * The client's network address, for limits on requests that carry no credential (signup).
 * It is only ever taken from a header that an edge in front of the Worker sets and that a
 * client cannot forge:
 *
 * - **Deployed** (no `LOCAL_EDGE_SECRET` in the environment): Cloudflare's edge sets
 *   `CF-Connecting-IP` to the socket peer on every request, replacing any the client sent.
 * - **`npm start`**: wrangler dev passes a client-sent `CF-Connecting-IP` through untouched
 *   (miniflare fills it from the socket only when absent), so the local edge in front of it
 *   (scripts/localEdge.ts) plays Cloudflare's part: it sets the header to the socket peer
 *   and proves itself with `Cubicle-Edge-Secret`, a secret made for this start and passed
 *   to the Worker as the `LOCAL_EDGE_SECRET` var. A request without it (one that reached
 *   wrangler dev around the edge) has no trustworthy address.
 *
 * The secret's presence is how the Worker knows it is not deployed: `wrangler deploy` never
 * sets it, so a production Worker trusts Cloudflare's header with no configuration at all.
 */
import type { AppContext } from "./context.ts";

export const EDGE_SECRET_HEADER = "cubicle-edge-secret";

/** The client's address, or null when no trustworthy edge vouched for one. */
export function clientAddress(c: AppContext): string | null {
  const address = c.req.header("cf-connecting-ip") ?? null;
  const secret = (c.env as Env & { LOCAL_EDGE_SECRET?: string }).LOCAL_EDGE_SECRET;
  if (!secret) return address;
  return sameSecret(c.req.header(EDGE_SECRET_HEADER) ?? "", secret) ? address : null;
}

/** Compares in time that does not depend on where the strings differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}
