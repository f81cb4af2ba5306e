/**
 * Clients of an egress proxy for its tests, talking to its unix socket as the box's bridge
 * would: raw exchanges, CONNECT tunnels, https and plain http through it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { get as httpGet, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { type EgressProxy, type EgressProxyOptions, startEgressProxy } from "../egress/proxy.ts";

/** A proxy on a fresh socket; `stop` closes it and removes its directory. */
export async function proxyFor(
  options: Omit<EgressProxyOptions, "socketPath" | "boxUid"> & { boxUid?: number | null },
) {
  const dir = await mkdtemp(join(tmpdir(), "egress-"));
  const proxy = await startEgressProxy({ boxUid: null, ...options, socketPath: join(dir, "proxy.sock") });
  return {
    proxy,
    stop: async () => {
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Sends `text` on a new connection and collects everything until the proxy closes it. */
export function exchange(proxy: EgressProxy, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
    socket.write(text);
  });
}

/** The status code and body of a raw HTTP response. */
export function parseAnswer(raw: string): { status: number; body: string } {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: rest.join("\r\n\r\n") };
}

/** `CONNECT authority`: the proxy's answer, and the open socket when it was a 200. */
export async function openTunnel(proxy: EgressProxy, authority: string) {
  const socket = connect(proxy.socketPath);
  const request = `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`;
  socket.write(request);
  const head = await readHead(socket);
  return { socket, status: Number(head.text.split(" ")[1]), head: head.text, requestBytes: request.length, ...head };
}

/** Reads up to and including the blank line that ends a response head; the rest stays unread. */
function readHead(socket: Socket): Promise<{ text: string; headBytes: number }> {
  return new Promise((resolve, reject) => {
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const end = seen.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      socket.pause();
      const rest = seen.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve({ text: seen.subarray(0, end).toString(), headBytes: end + 4 });
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.once("close", () => resolve({ text: seen.toString(), headBytes: seen.length }));
  });
}

/**
 * GET `https://host/path` through a tunnel the caller opened, TLS verified as usual. The
 * connection is kept alive after the answer (nothing more is written on it), so the caller
 * can compare byte counts before closing it.
 */
export function httpsThrough(
  tunnel: Socket,
  host: string,
  path: string,
): Promise<{ status: number; body: string; tlsVersion: string | null }> {
  const tls = tlsConnect({ socket: tunnel, servername: host });
  class TunnelAgent extends HttpsAgent {
    override createConnection() {
      return tls;
    }
  }
  return new Promise((resolve, reject) => {
    const request = httpsRequest({ host, path, agent: new TunnelAgent({ keepAlive: true }) }, async (response) => {
      const body = await text(response);
      resolve({ status: response.statusCode ?? 0, body, tlsVersion: tls.getProtocol() });
    });
    request.on("error", reject);
    request.end();
  });
}

/** `GET url` in absolute form through the proxy, as a client configured with http_proxy sends it. */
export function httpThrough(socketPath: string, url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      { path: url, headers: { host: new URL(url).host }, createConnection: () => connect(socketPath) },
      async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) });
      },
    );
    request.on("error", reject);
  });
}

async function text(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}
