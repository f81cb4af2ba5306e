/**
 * Where an executor's request may go: http(s) to a host that is not, by its literal, the
 * platform's own network. The check reads the URL as the WHATWG parser normalized it, so
 * spellings like `http://2130706433/`, `http://0x7f.1/` or `http://[::ffff:127.0.0.1]/` are
 * already the canonical `127.0.0.1` or `[::ffff:7f00:1]` when they get here.
 *
 * Known bound: only literals are checked. A public name that resolves to a private address
 * (DNS rebinding, `localtest.me`) passes; in production Workers cannot reach private
 * addresses anyway, and locally (`npm start`) the platform trusts its own machine.
 */

/** IPv4 ranges no executor may reach: [base address, prefix length]. */
const privateV4Ranges: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 connects to the local host on Linux
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT, used for internal networks too
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, where cloud metadata services live
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
];
const privateV4 = privateV4Ranges.map(([base, bits]) => [parseV4(base) ?? 0, bits] as const);

/** Why `url` may not be fetched by an executor, or null when it may. */
export function refusedDestination(url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https are allowed, not ${url.protocol.slice(0, -1)}`;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is the local host`;
  const v4 = host.startsWith("[") ? mappedV4(host.slice(1, -1)) : parseV4(host);
  if (v4 !== null && privateV4.some(([base, bits]) => inRange(v4, base, bits))) {
    return `${host} is a private or loopback address`;
  }
  if (host.startsWith("[") && isPrivateV6(host.slice(1, -1))) return `${host} is a private or loopback address`;
  return null;
}

function inRange(address: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === (base & mask) >>> 0;
}

/** A dotted quad as a number; null for anything else (a name). */
function parseV4(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** The eight 16-bit groups of an IPv6 literal (as the URL parser writes it: compressed, hex). */
function groupsV6(literal: string): number[] | null {
  const [head = "", tail] = literal.split("::");
  const split = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const front = split(head);
  const back = tail === undefined ? [] : split(tail);
  const zeros = tail === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...new Array<number>(zeros).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : null;
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or IPv4-compatible IPv6 literal. */
function mappedV4(literal: string): number | null {
  const groups = groupsV6(literal);
  if (!groups || groups.slice(0, 5).some((g) => g !== 0)) return null;
  if (groups[5] !== 0xffff && groups[5] !== 0) return null;
  return (groups[6] ?? 0) * 65536 + (groups[7] ?? 0);
}

/** `::` and `::1`, unique local fc00::/7 and link-local fe80::/10. */
function isPrivateV6(literal: string): boolean {
  const groups = groupsV6(literal);
  if (!groups) return true; // not something the URL parser would produce: refuse rather than guess
  const first = groups[0] ?? 0;
  if (groups.slice(0, 7).every((g) => g === 0) && (groups[7] === 0 || groups[7] === 1)) return true;
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}
