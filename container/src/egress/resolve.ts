/**
 * From a name to addresses the proxy may connect to. The proxy resolves the name itself and
 * refuses it if ANY address it resolves to is not public (container/wire/egress/address.ts),
 * then connects to those checked addresses, never to the name again: a name that points at
 * the platform's own network (DNS rebinding, `localtest.me`, a record that flips between two
 * lookups) cannot get a connection there.
 *
 * Lookups go to the machine's DNS servers through c-ares (`dns.Resolver`), not getaddrinfo:
 * they run off the libuv thread pool, which the daemon's file operations share, and have a
 * timeout. The hosts file is not read, so the machine's own names (its hostname, `localhost`)
 * are not a way in either; search domains do not apply (names are absolute).
 */
import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { addressRefusal } from "../../wire/egress/address.ts";
import { notPublicText, unreachableText } from "../../wire/egress/refusal.ts";
import type { EgressProxyLimits } from "./limits.ts";
import type { Answer, Target } from "./target.ts";

/** Public addresses to try in order, or why the target cannot be reached. */
export type Resolved = { ok: true; addresses: string[] } | ({ ok: false } & Answer);

export class TargetResolver {
  private readonly resolver: Resolver;

  /** `servers` replaces the machine's DNS servers (`host:port`); only tests name them. */
  constructor(limits: EgressProxyLimits, servers: string[] | null = null) {
    this.resolver = new Resolver({ timeout: limits.resolveTimeoutMs, tries: limits.resolveTries });
    if (servers) this.resolver.setServers(servers);
  }

  async resolve(target: Target): Promise<Resolved> {
    const addresses = isIP(target.host) ? [target.host] : await this.lookup(target);
    if (!Array.isArray(addresses)) return { ok: false, ...addresses };
    for (const address of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) {
        const shown = address === target.host ? target.host : `${target.host} resolves to ${address}, which`;
        return { ok: false, status: 403, text: notPublicText(target.label, `${shown} is ${refusal}`) };
      }
    }
    return { ok: true, addresses };
  }

  /** Stops every lookup in flight (they fail with ECANCELLED); the proxy is closing. */
  cancel(): void {
    this.resolver.cancel();
  }

  /** IPv4 addresses first: most networks a container runs on have no IPv6 route. */
  private async lookup(target: Target): Promise<string[] | Answer> {
    const [v4, v6] = await Promise.allSettled([
      this.resolver.resolve4(target.host),
      this.resolver.resolve6(target.host),
    ]);
    const addresses = [...(v4.status === "fulfilled" ? v4.value : []), ...(v6.status === "fulfilled" ? v6.value : [])];
    if (addresses.length > 0) return addresses;
    const failure = [v4, v6].find((r): r is PromiseRejectedResult => r.status === "rejected");
    const code = (failure?.reason as NodeJS.ErrnoException | undefined)?.code ?? "no address";
    const why = code === "ENOTFOUND" || code === "ENODATA" ? "no such host" : `DNS lookup failed (${code})`;
    return { status: 502, text: unreachableText(target.label, why) };
  }
}
