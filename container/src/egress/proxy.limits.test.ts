/**
 * The egress proxy's bounds (limits.ts), each lowered so a test can reach it: connections at
 * once, the size of a request head, the time to send one, and idle tunnels. Each ends with
 * an answer that says which bound it was, or with the connection closed.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { exchange, openTunnel, parseAnswer, proxyFor } from "../testing/egressClient.ts";
import type { EgressProxyLimits } from "./limits.ts";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
async function started(limits: Partial<EgressProxyLimits>) {
  const made = await proxyFor({ allow: null, limits });
  stops.push(made.stop);
  return made.proxy;
}

/** Connects and waits until the proxy has accepted the connection (its first byte round trip). */
async function idleConnection(path: string): Promise<Socket> {
  const socket = connect(path);
  await new Promise((resolve) => socket.once("connect", resolve));
  return socket;
}

const closed = (socket: Socket) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
  });

describe("egress proxy limits", () => {
  it("answers 503 past the connections a command may have at once, and serves again when one closes", async () => {
    const proxy = await started({ connectionsMax: 2 });
    const held = [await idleConnection(proxy.socketPath), await idleConnection(proxy.socketPath)];
    const over = parseAnswer(await exchange(proxy, "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(over).toEqual({
      status: 503,
      body: "cubicle egress: this command already has 2 connections open, the most it may have at once\n",
    });
    const gone = closed(held[0] as Socket);
    held[0]?.destroy();
    await gone;
    // Served again: the policy answers, not the bound.
    await expect(exchange(proxy, "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: x\r\n\r\n")).resolves.toMatch(
      /^HTTP\/1.1 403/,
    );
    held[1]?.destroy();
  });

  it("answers 431 to a request head larger than the bound", async () => {
    const proxy = await started({ headerBytesMax: 1024 });
    const padded = `CONNECT registry.npmjs.org:443 HTTP/1.1\r\nHost: x\r\nX-Pad: ${"a".repeat(2048)}\r\n\r\n`;
    expect(parseAnswer(await exchange(proxy, padded))).toEqual({
      status: 431,
      body: "cubicle egress: the request head is larger than 1024 bytes\n",
    });
    expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: 0 });
  });

  it("closes a connection that does not finish its request head in time", async () => {
    const proxy = await started({ headerTimeoutMs: 300 });
    const socket = await idleConnection(proxy.socketPath);
    const answer = closed(socket);
    socket.write("CONNECT registry.npmjs.org:443 HTTP/1.1\r\n");
    expect(parseAnswer(await answer)).toEqual({
      status: 408,
      body: "cubicle egress: no whole request head within 300 ms\n",
    });
  });

  it("closes a tunnel that stays idle", async () => {
    const proxy = await started({ idleTimeoutMs: 500 });
    const tunnel = await openTunnel(proxy, "registry.npmjs.org:443");
    expect(tunnel.status).toBe(200);
    await closed(tunnel.socket);
    expect(proxy.usage()).toEqual({ sentBytes: 0, receivedBytes: 0 });
  });
});
