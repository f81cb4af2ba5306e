/**
 * Where an executor's request may go: http(s) to a host that is not, by its name or its
 * literal address, the platform's own network (address.ts says which addresses are public).
 * The check reads the host as the WHATWG URL parser normalised it, so spellings like
 * `http://2130706433/`, `http://0x7f.1/` or `http://[::ffff:127.0.0.1]/` are already the
 * canonical `127.0.0.1` or `[::ffff:7f00:1]` when they get here.
 *
 * This is all the Worker-side gateway can check: a public name that resolves to a private
 * address (DNS rebinding, `localtest.me`) passes it, and in production Workers cannot reach
 * private addresses anyway. computerd's proxy, which resolves names itself, also checks
 * every address a name resolves to (container/src/egress/).
 */
import { addressRefusal } from "./address.ts";

/** Why `url` may not be fetched by an executor, or null when it may. */
export function refusedDestination(url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https are allowed, not ${url.protocol.slice(0, -1)}`;
  }
  return refusedHost(url.hostname);
}

/**
 * Why a host, as the URL parser writes one (`example.com`, `1.2.3.4`, `[::1]`), may not be
 * reached by its name or literal, or null when it may.
 */
export function refusedHost(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is the local host`;
  const literal = host.startsWith("[") ? host.slice(1, -1) : /^[\d.]+$/.test(host) ? host : null;
  const refusal = literal === null ? null : addressRefusal(literal);
  return refusal ? `${host} is ${refusal}` : null;
}
