/**
 * Which IP addresses an executor's traffic may go to: the public internet only. Both egress
 * paths ask this: the Worker-side gateway for the literal in a request URL, and computerd's
 * proxy for every address a name resolves to, right before it connects.
 *
 * The rule is the IANA special-purpose registries (RFC 6890 and successors), read as "could
 * this address be the platform's own network, or something other than one host on the
 * internet?": loopback, private, carrier-grade NAT, link-local (cloud metadata lives at
 * 169.254.169.254), "this network", multicast, broadcast, benchmarking and the reserved
 * blocks are refused; for IPv6 only global unicast (2000::/3) passes, less the IETF
 * protocol block, and the forms that carry an IPv4 address inside (IPv4-mapped, NAT64,
 * 6to4) are judged by the IPv4 address they reach.
 *
 * One deliberate exception: the documentation ranges (192.0.2.0/24, 198.51.100.0/24,
 * 203.0.113.0/24, 2001:db8::/32, 3fff::/20) pass. No internet host lives there, so nothing
 * of the platform's does either; but some egress setups answer there for every name (this
 * project's CI and development machines resolve the package registries to a transparent
 * TLS gateway at 203.0.113.80), and refusing them would cut those setups off for no gain.
 */

/** Why an address is not public, phrased to follow "`<address>` is". */
export type AddressRefusal = "a private or loopback address" | "a multicast address" | "a reserved address";

const PRIVATE = "a private or loopback address";
const MULTICAST = "a multicast address";
const RESERVED = "a reserved address";

/** IPv4 blocks no executor may reach: [base, prefix length, why]. */
const refusedV4Blocks: readonly (readonly [string, number, AddressRefusal])[] = [
  ["0.0.0.0", 8, PRIVATE], // "this network"; 0.0.0.0 connects to the local host on Linux
  ["10.0.0.0", 8, PRIVATE],
  ["100.64.0.0", 10, PRIVATE], // carrier-grade NAT, used for internal networks too
  ["127.0.0.0", 8, PRIVATE],
  ["169.254.0.0", 16, PRIVATE], // link-local, where cloud metadata services live
  ["172.16.0.0", 12, PRIVATE],
  ["192.0.0.0", 24, RESERVED], // IETF protocol assignments (DS-Lite, NAT64 discovery)
  ["192.88.99.0", 24, RESERVED], // the retired 6to4 relay anycast
  ["192.168.0.0", 16, PRIVATE],
  ["198.18.0.0", 15, RESERVED], // benchmarking; fake-IP DNS proxies answer from here
  ["224.0.0.0", 4, MULTICAST],
  ["240.0.0.0", 4, RESERVED], // reserved, and 255.255.255.255 broadcast
];
const refusedV4 = refusedV4Blocks.map(([base, bits, why]) => [parseIPv4(base) ?? 0, bits, why] as const);

/**
 * Why `address` (a dotted quad, or an IPv6 address without brackets, as `dns.lookup` and the
 * URL parser write them) may not be reached, or null when it is public. Anything that is
 * not an address of either kind is refused as reserved rather than guessed at.
 */
export function addressRefusal(address: string): AddressRefusal | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) return v4Refusal(v4);
  const v6 = parseIPv6(address);
  return v6 === null ? RESERVED : v6Refusal(v6);
}

/** Whether `text` is an IP address literal (dotted quad or IPv6, no brackets), as opposed to a name. */
export function isIpAddress(text: string): boolean {
  return parseIPv4(text) !== null || parseIPv6(text) !== null;
}

function v4Refusal(address: number): AddressRefusal | null {
  for (const [base, bits, why] of refusedV4) if (inV4Block(address, base, bits)) return why;
  return null;
}

function v6Refusal(groups: readonly number[]): AddressRefusal | null {
  const g = (i: number) => groups[i] ?? 0;
  const embedded = (hi: number, lo: number) => g(hi) * 65536 + g(lo);
  const zerosBefore = (n: number) => groups.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d reaches a.b.c.d; so does 64:ff9b::a.b.c.d through any NAT64 gateway.
  if (zerosBefore(5) && g(5) === 0xffff) return v4Refusal(embedded(6, 7));
  if (g(0) === 0x64 && g(1) === 0xff9b && groups.slice(2, 6).every((x) => x === 0)) return v4Refusal(embedded(6, 7));
  if (zerosBefore(7) && (g(7) === 0 || g(7) === 1)) return PRIVATE; // :: and ::1
  if ((g(0) & 0xfe00) === 0xfc00) return PRIVATE; // unique local fc00::/7
  if ((g(0) & 0xffc0) === 0xfe80 || (g(0) & 0xffc0) === 0xfec0) return PRIVATE; // link-local, old site-local
  if ((g(0) & 0xff00) === 0xff00) return MULTICAST;
  if ((g(0) & 0xe000) !== 0x2000) return RESERVED; // outside global unicast 2000::/3
  if (g(0) === 0x2001 && g(1) < 0x0200) return RESERVED; // IETF protocol assignments 2001::/23, Teredo included
  if (g(0) === 0x2002) return v4Refusal(embedded(1, 2)); // 6to4 carries the IPv4 address it reaches
  return null;
}

function inV4Block(address: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === (base & mask) >>> 0;
}

/** A dotted quad (four decimal parts 0–255, no leading zeros beyond one digit) as a number; null otherwise. */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/**
 * The eight 16-bit groups of an IPv6 address, in any textual form (RFC 4291: compressed or
 * not, hex in either case, a dotted-quad tail); null for anything else. A zone (`%eth0`) is
 * not accepted: only link-local addresses have one, and those are refused anyway.
 */
export function parseIPv6(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(":");
  if (body.includes(".")) {
    const v4 = parseIPv4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
    body = body.slice(0, lastColon + 1);
    // `::1.2.3.4` leaves `::`; `a:b::1.2.3.4` leaves `a:b::`; `1:2:3:4:5:6:1.2.3.4` leaves `1:2:3:4:5:6:`.
    if (!body.endsWith("::")) body = body.slice(0, -1);
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (s: string) => (s === "" ? [] : s.split(":"));
  const front = groupsOf(halves[0] ?? "");
  const back = [...groupsOf(halves[1] ?? ""), ...tail.map((n) => n.toString(16))];
  if (![...front, ...back].every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return null;
  const missing = 8 - front.length - back.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const zeros = new Array<string>(halves.length === 1 ? 0 : missing).fill("0");
  return [...front, ...zeros, ...back].map((group) => Number.parseInt(group, 16));
}
