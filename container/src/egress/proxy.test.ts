/**
 * The egress proxy's working path, against the real internet: the two hosts this machine and
 * CI can reach (registry.npmjs.org over https, deb.debian.org over plain http). Each test
 * talks to the proxy's unix socket as the box's bridge does, and checks what the proxy
 * counted against what the client itself sent and received.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { httpsThrough, httpThrough, openTunnel, proxyFor } from "../testing/egressClient.ts";
import { startEgressRun } from "./run.ts";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
async function started(allow: string[] | null = null) {
  const made = await proxyFor({ allow });
  stops.push(made.stop);
  return made.proxy;
}

describe("egress proxy", () => {
  it("tunnels https to a public host: TLS verifies end to end, and every byte relayed is counted", async () => {
    const proxy = await started(["registry.npmjs.org"]);
    const tunnel = await openTunnel(proxy, "registry.npmjs.org:443");
    expect(tunnel.status).toBe(200);
    const answer = await httpsThrough(tunnel.socket, "registry.npmjs.org", "/left-pad");
    expect(answer.status).toBe(200);
    expect(answer.tlsVersion).toMatch(/^TLSv1\.[23]$/);
    expect(JSON.parse(answer.body)).toMatchObject({ name: "left-pad" });
    // Everything the client sent after its CONNECT head and read after the proxy's 200:
    // the TLS handshake, the request and the answer, as the proxy relayed them.
    await vi.waitFor(() =>
      expect(proxy.usage()).toEqual({
        sentBytes: tunnel.socket.bytesWritten - tunnel.requestBytes,
        receivedBytes: tunnel.socket.bytesRead - tunnel.headBytes,
      }),
    );
    expect(proxy.usage().receivedBytes).toBeGreaterThan(answer.body.length);
    tunnel.socket.destroy();
  });

  it("forwards an absolute-form http GET and counts its body", async () => {
    const proxy = await started();
    const answer = await httpThrough(proxy.socketPath, "http://deb.debian.org/debian/dists/bookworm/Release.gpg");
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toContain("-----BEGIN PGP SIGNATURE-----");
    await vi.waitFor(() => expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: answer.body.length }));
  });

  it("adds up every connection of the exec", async () => {
    const proxy = await started();
    const first = await httpThrough(proxy.socketPath, "http://deb.debian.org/debian/dists/bookworm/Release.gpg");
    const tunnel = await openTunnel(proxy, "registry.npmjs.org:443");
    await httpsThrough(tunnel.socket, "registry.npmjs.org", "/left-pad");
    const tunnelled = {
      sentBytes: tunnel.socket.bytesWritten - tunnel.requestBytes,
      receivedBytes: tunnel.socket.bytesRead - tunnel.headBytes,
    };
    await vi.waitFor(() =>
      expect(proxy.usage()).toEqual({
        sentBytes: tunnelled.sentBytes,
        receivedBytes: first.body.length + tunnelled.receivedBytes,
      }),
    );
    tunnel.socket.destroy();
  });

  it("close cuts open tunnels, removes its socket, answers the final count, and can be called again", async () => {
    const proxy = await started();
    const tunnel = await openTunnel(proxy, "registry.npmjs.org:443");
    await httpsThrough(tunnel.socket, "registry.npmjs.org", "/left-pad");
    const closedTunnel = new Promise((resolve) => tunnel.socket.once("close", resolve));
    const final = await proxy.close();
    await closedTunnel;
    expect(final.receivedBytes).toBe(tunnel.socket.bytesRead - tunnel.headBytes);
    expect(await proxy.close()).toEqual(final);
    await expect(stat(proxy.socketPath)).rejects.toMatchObject({ code: "ENOENT" });
    const refused = connect(proxy.socketPath);
    await expect(new Promise((_, reject) => refused.once("error", reject))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("makes its socket the box user's alone", async () => {
    const made = await proxyFor({ allow: null, boxUid: 100_123 });
    stops.push(made.stop);
    const info = await stat(made.proxy.socketPath);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    expect([info.uid, info.gid]).toEqual([100_123, 100_123]);
  });
});

describe("startEgressRun", () => {
  it("starts a proxy on a fresh socket, and close answers the exec's egressBytes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "egress-run-"));
    const first = await startEgressRun({ dir, allow: ["deb.debian.org"], boxUid: null });
    const second = await startEgressRun({ dir, allow: null, boxUid: null });
    expect(first.socketPath).not.toBe(second.socketPath);
    expect(first.env.HTTPS_PROXY).toBe("http://127.0.0.1:3128");
    expect(first.bridge).toEqual([
      "socat",
      "TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr",
      "UNIX-CONNECT:/run/cubicle/egress.sock",
    ]);
    const answer = await httpThrough(first.socketPath, "http://deb.debian.org/debian/dists/bookworm/Release.gpg");
    expect(answer.status).toBe(200);
    expect(await first.close()).toBe(answer.body.length);
    expect(await second.close()).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });
});
