/**
 * A run's egress allow list: the hosts its requests may reach, checked by both egress paths
 * (the Worker-side gateway, executors/egress, and computerd's proxy, container/src/egress)
 * on top of the destination check every request passes (destination.ts). A run asks for one with
 * `egress: { allow: [...] }`; `egress: true` has no list (any public host).
 *
 * Entries, as normalised:
 * - `api.github.com`: that host exactly.
 * - `*.npmjs.org`: any subdomain of npmjs.org, at any depth (`registry.npmjs.org`,
 *   `a.b.npmjs.org`), but not `npmjs.org` itself; list both to allow both. The `*` is only
 *   ever the whole first label.
 * - A public IP literal, `1.1.1.1` or `[2606:4700::1111]`; never under a wildcard.
 * - Any of these with `:port` (`api.github.com:443`) allows that port only; without one,
 *   every port. The scheme is not part of an entry: http and https both match, on the URL's
 *   port (80 and 443 when it names none).
 *
 * Normalisation goes through the platform's WHATWG URL host parser, the same one that reads
 * the request URLs the gateway and the proxy match against, so an entry and a request agree on spelling
 * by construction: lowercase, IDNA to punycode (`bücher.example` → `xn--bcher-kva.example`),
 * IPv4 in any spelling to a dotted quad, IPv6 compressed, a trailing dot dropped. A list is
 * a set: duplicates go and entries sort, so the same hosts in any order are the same list
 * with the same digest (which keys the warm isolate the run lands in; see WorkspaceDO).
 */
import { refusedDestination } from "./destination.ts";
import { egressLimits } from "./limits.ts";

/** What a run may reach: `allow` null for any public host, else only the listed ones (normalised). */
export interface EgressPolicy {
  allow: string[] | null;
}

export type AllowEntry = { ok: true; entry: string } | { ok: false; reason: string };

const SHAPE = "must be a host name, optionally with `*.` before it and `:port` after it, not a URL";

/** One entry as a caller wrote it, normalised, or why it cannot be one. */
export function normaliseAllowEntry(raw: string): AllowEntry {
  if (raw.length === 0) return { ok: false, reason: "must not be empty" };
  if (raw.length > egressLimits.allowEntryCharsMax) {
    return { ok: false, reason: `is longer than ${egressLimits.allowEntryCharsMax} characters` };
  }
  // The URL parser would read these as a path, query, fragment or credentials and drop them.
  if (/[\s/?#@\\]/.test(raw)) return { ok: false, reason: SHAPE };
  const wildcard = raw.startsWith("*.");
  const rest = wildcard ? raw.slice(2) : raw;
  if (rest.includes("*")) return { ok: false, reason: "`*` may only be the whole first label, as in `*.example.com`" };
  const split = splitPort(rest);
  if (!split.ok) return split;
  let hostname: string;
  try {
    hostname = new URL(`http://${split.host}/`).hostname.replace(/\.$/, "");
  } catch {
    return { ok: false, reason: `\`${split.host}\` is not a valid host name` };
  }
  const literal = isAddress(hostname);
  if (literal && wildcard) return { ok: false, reason: "a wildcard needs a host name, not an IP address" };
  if (!literal) {
    const invalid = invalidName(hostname);
    if (invalid) return { ok: false, reason: invalid };
  }
  const refused = refusedDestination(new URL(`http://${hostname}/`));
  if (refused) return { ok: false, reason: `${refused}; executors may reach only the public internet` };
  return { ok: true, entry: `${wildcard ? "*." : ""}${hostname}${split.port === null ? "" : `:${split.port}`}` };
}

/** A whole list normalised as a set (deduplicated, sorted), or the first entry that is not valid. */
export function normaliseAllowList(
  raw: readonly string[],
): { ok: true; allow: string[] } | { ok: false; index: number; reason: string } {
  const entries = new Set<string>();
  for (const [index, entry] of raw.entries()) {
    const normalised = normaliseAllowEntry(entry);
    if (!normalised.ok) return { ok: false, index, reason: normalised.reason };
    entries.add(normalised.entry);
  }
  return { ok: true, allow: [...entries].sort() };
}

/** Whether `url` (as the URL parser read it) is one that a normalised `allow` list lets through. */
export function allowListed(url: URL, allow: readonly string[]): boolean {
  const host = url.hostname.replace(/\.$/, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allow.some((entry) => {
    const rule = /^(\*\.)?(.+?)(?::(\d+))?$/.exec(entry);
    if (!rule) return false;
    const [, wildcard, base = "", rulePort] = rule;
    if (rulePort !== undefined && rulePort !== port) return false;
    return wildcard ? host.endsWith(`.${base}`) : host === base;
  });
}

/**
 * A stable digest of a normalised list (hex SHA-256, 128 bits of it): the same list always
 * gives the same digest, and distinct lists never share one in practice.
 */
export async function allowListDigest(allow: readonly string[]): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(allow.join("\n"))));
  return [...bytes.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The entries of a refusal message: the first few of the list, then how many more. */
export function describeAllowList(allow: readonly string[]): string {
  const shown = allow.slice(0, egressLimits.refusalEntriesShownMax).join(", ");
  const more = allow.length - egressLimits.refusalEntriesShownMax;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/** `host[:port]`, with an IPv6 literal in brackets; the port as a canonical decimal. */
function splitPort(text: string): { ok: true; host: string; port: number | null } | { ok: false; reason: string } {
  const bracket = text.startsWith("[") ? text.indexOf("]") : -1;
  const colon = bracket >= 0 ? (text[bracket + 1] === ":" ? bracket + 1 : -1) : text.indexOf(":");
  if (bracket < 0 && colon >= 0 && text.indexOf(":", colon + 1) >= 0) {
    return { ok: false, reason: "an IPv6 address needs brackets, as in `[2606:4700::1111]`" };
  }
  if (bracket >= 0 && colon < 0 && bracket !== text.length - 1) return { ok: false, reason: SHAPE };
  if (colon < 0) return { ok: true, host: text, port: null };
  const port = text.slice(colon + 1);
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535) {
    return { ok: false, reason: "the port must be a number from 1 to 65535" };
  }
  return { ok: true, host: text.slice(0, colon), port: Number(port) };
}

/** An IP literal as the URL parser writes one: a dotted quad or a bracketed IPv6 address. */
function isAddress(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Why a normalised name is not a DNS host name, or null. The URL parser lets more through. */
function invalidName(hostname: string): string | null {
  if (hostname.length > egressLimits.hostCharsMax) {
    return `the host name is longer than ${egressLimits.hostCharsMax} characters`;
  }
  const label = new RegExp(`^[a-z0-9_-]{1,${egressLimits.hostLabelCharsMax}}$`);
  if (!hostname.split(".").every((part) => label.test(part))) {
    return `\`${hostname}\` is not a valid host name: its labels are 1 to ${egressLimits.hostLabelCharsMax} letters, digits, \`-\` or \`_\``;
  }
  return null;
}
