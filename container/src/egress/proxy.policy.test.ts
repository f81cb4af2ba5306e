/**
 * What the egress proxy refuses, and that a refusal costs nothing: the platform's own
 * network by literal and by name, names that resolve there (through a DNS server the test
 * runs, answering what a rebinding attacker would), hosts off the run's allow list, tunnels
 * to other ports, and requests that are not proxy requests. Every refusal is a 403 (400 for
 * what is not a proxy request) with one line starting `cubicle egress:`, and no byte counted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DnsServer, startDnsServer } from "../testing/dnsServer.ts";
import { exchange, openTunnel, parseAnswer, proxyFor } from "../testing/egressClient.ts";
import type { EgressProxy } from "./proxy.ts";

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    "rebound.test": ["127.0.0.1"],
    "metadata.test": ["169.254.169.254"],
    "mixed.test": ["203.0.113.80", "10.0.0.7"],
    "inside.test": ["2606:4700::1111", "fd00::1"],
    "mapped.test": ["::ffff:7f00:1"],
  });
});
afterAll(() => dns.close());

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
async function started(allow: string[] | null = null, dnsServers?: string[]) {
  const made = await proxyFor({ allow, ...(dnsServers ? { dnsServers } : {}) });
  stops.push(made.stop);
  return made.proxy;
}

/** The proxy's answer to `CONNECT authority`: status and one-line body. */
async function connectAnswer(proxy: EgressProxy, authority: string) {
  const tunnel = await openTunnel(proxy, authority);
  const body = await new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    tunnel.socket.on("data", (chunk) => chunks.push(chunk));
    tunnel.socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
    tunnel.socket.resume();
  });
  return { status: tunnel.status, body };
}

describe("egress proxy refuses", () => {
  it.each([
    ["127.0.0.1:443", "127.0.0.1 is a private or loopback address"],
    ["10.1.2.3:443", "10.1.2.3 is a private or loopback address"],
    ["169.254.169.254:80", "169.254.169.254 is a private or loopback address"],
    ["[::1]:443", "[::1] is a private or loopback address"],
    ["[::ffff:127.0.0.1]:443", "[::ffff:7f00:1] is a private or loopback address"],
    ["2130706433:443", "127.0.0.1 is a private or loopback address"],
    ["localhost:443", "localhost is the local host"],
    ["api.localhost:443", "api.localhost is the local host"],
  ])("CONNECT %s: %s", async (authority, reason) => {
    const proxy = await started();
    const answer = await connectAnswer(proxy, authority);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/^cubicle egress: refused \S+: .+; executors may reach only the public internet\n$/);
    expect(answer.body).toContain(reason);
    expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: 0 });
  });

  it.each([
    ["rebound.test", "rebound.test resolves to 127.0.0.1, which is a private or loopback address"],
    ["metadata.test", "metadata.test resolves to 169.254.169.254, which is a private or loopback address"],
    ["mixed.test", "mixed.test resolves to 10.0.0.7, which is a private or loopback address"],
    ["inside.test", "inside.test resolves to fd00::1, which is a private or loopback address"],
    ["mapped.test", "mapped.test resolves to ::ffff:127.0.0.1, which is a private or loopback address"],
  ])("a name that resolves to a private address, %s, even beside a public one", async (name, reason) => {
    const proxy = await started(null, [dns.address]);
    const tunnel = await connectAnswer(proxy, `${name}:443`);
    expect(tunnel.status).toBe(403);
    expect(tunnel.body).toContain(reason);
    const plain = parseAnswer(await exchange(proxy, `GET http://${name}/x HTTP/1.1\r\nHost: ${name}\r\n\r\n`));
    expect(plain.status).toBe(403);
    expect(plain.body).toContain(reason);
    expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: 0 });
  });

  it("a name that does not resolve, with a 502", async () => {
    const proxy = await started(null, [dns.address]);
    const answer = await connectAnswer(proxy, "nowhere.test:443");
    expect(answer).toEqual({ status: 502, body: "cubicle egress: could not reach nowhere.test:443: no such host\n" });
  });

  it("a host off the run's allow list, before any DNS query", async () => {
    const proxy = await started(["*.npmjs.org", "deb.debian.org:80"], [dns.address]);
    const asked = dns.questions.length;
    expect(await connectAnswer(proxy, "npmjs.org:443")).toEqual({
      status: 403,
      body: "cubicle egress: refused npmjs.org:443: not in this run's allow list (*.npmjs.org, deb.debian.org:80)\n",
    });
    expect((await connectAnswer(proxy, "deb.debian.org:443")).status).toBe(403);
    expect((await connectAnswer(proxy, "rebound.test:443")).status).toBe(403);
    const plain = parseAnswer(
      await exchange(proxy, "GET http://deb.debian.org:8080/ HTTP/1.1\r\nHost: deb.debian.org:8080\r\n\r\n"),
    );
    expect(plain).toEqual({
      status: 403,
      body: "cubicle egress: refused http://deb.debian.org:8080: not in this run's allow list (*.npmjs.org, deb.debian.org:80)\n",
    });
    expect(dns.questions.length).toBe(asked);
    expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: 0 });
  });

  it("a tunnel to a port other than 80 and 443", async () => {
    const proxy = await started();
    const answer = await connectAnswer(proxy, "registry.npmjs.org:22");
    expect(answer).toEqual({
      status: 403,
      body: "cubicle egress: refused registry.npmjs.org:22: tunnels reach only ports 80 and 443; plain http may use any port\n",
    });
  });

  it.each([
    ["GET / HTTP/1.1\r\nHost: 127.0.0.1:3128\r\n\r\n", 400, "this is an http proxy"],
    [
      "GET https://registry.npmjs.org/ HTTP/1.1\r\nHost: registry.npmjs.org\r\n\r\n",
      400,
      "https goes through a tunnel",
    ],
    ["GET ftp://deb.debian.org/ HTTP/1.1\r\nHost: deb.debian.org\r\n\r\n", 403, "only http and https are allowed"],
    ["CONNECT registry.npmjs.org HTTP/1.1\r\nHost: x\r\n\r\n", 400, "CONNECT needs host:port"],
    ["CONNECT user@registry.npmjs.org:443 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "CONNECT needs host:port"],
    [
      "GET http://deb.debian.org/ HTTP/1.1\r\nHost: deb.debian.org\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
      501,
      "protocol upgrades over plain http are not proxied",
    ],
  ])("what is not a proxy request it can carry: %j", async (request, status, reason) => {
    const proxy = await started();
    const answer = parseAnswer(await exchange(proxy, request));
    expect(answer.status).toBe(status);
    expect(answer.body).toMatch(/^cubicle egress: .+\n$/);
    expect(answer.body).toContain(reason);
    expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: 0 });
  });
});
