/**
 * One exec's egress proxy: the only way a command with egress reaches the network. computerd
 * starts one per exec that has egress, listening on a unix socket that is bind-mounted into
 * the command's box (box.ts has the in-box half), and closes it when the command has ended.
 *
 * It is an HTTP/1.1 forward proxy for `CONNECT host:port` tunnels (https, and everything
 * git, npm, pip and curl send over TLS; tunnel.ts) and absolute-form `http://` requests
 * (forward.ts). Every request passes the policy both egress paths share
 * (container/wire/egress): the name or literal must not be the platform's own network, the
 * host must be on the run's allow list if it has one, a tunnel must aim at port 80 or 443;
 * then the proxy resolves the name itself and refuses it if any address is not public, and
 * connects to a checked address (resolve.ts, connect.ts). A refusal is a 403 whose body is
 * one line starting `cubicle egress: refused`, as the Worker-side gateway answers.
 *
 * What is counted (`usage`, and the exec's `egressBytes` as their sum): for a tunnel, every
 * byte relayed after the proxy's 200, both ways (the TLS handshake and records, so the
 * headers inside them too); for plain http, the request and response bodies as relayed
 * (chunked framing removed, content encoding untouched). Never a refused request, the proxy's
 * own answers, the heads of plain http requests, or TCP/IP overhead. The Worker-side gateway
 * counts bodies only, after content decoding: it sees requests, this proxy mostly sees TLS.
 *
 * Ownership: the caller (the exec runner) owns the proxy and must `close` it once the
 * command has ended; `close` cuts every connection still open, removes the socket file and
 * resolves with the final count. Every limit is in limits.ts.
 */
import { chmod, chown, rm } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { REFUSAL_PREFIX } from "../../wire/egress/refusal.ts";
import { forward } from "./forward.ts";
import { type EgressProxyLimits, egressProxyLimits } from "./limits.ts";
import { TargetResolver } from "./resolve.ts";
import { type EgressUsage, ProxyRoom } from "./room.ts";
import type { Answer } from "./target.ts";
import { tunnel } from "./tunnel.ts";

export type { EgressUsage } from "./room.ts";

export interface EgressProxyOptions {
  /** Where to listen: a unix socket path that does not exist yet, at most 107 bytes (the kernel's bound). */
  socketPath: string;
  /** The run's normalised allow list (container/wire/egress/allowList.ts); null for any public host. */
  allow: readonly string[] | null;
  /**
   * The host uid (and gid) the command's box runs as: the socket is made theirs, mode 0600,
   * so the box can connect and no other unprivileged user can. Null leaves it to root.
   */
  boxUid: number | null;
  /** Lower limits, for tests. */
  limits?: Partial<EgressProxyLimits>;
  /** DNS servers (`host:port`) instead of the machine's, for tests. */
  dnsServers?: string[];
}

export interface EgressProxy {
  readonly socketPath: string;
  /** Bytes relayed so far. */
  usage(): EgressUsage;
  /** Stops listening, cuts every connection, removes the socket; resolves with the final count. Safe to call twice. */
  close(): Promise<EgressUsage>;
}

const SOCKET_PATH_BYTES_MAX = 107;

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  if (Buffer.byteLength(options.socketPath) > SOCKET_PATH_BYTES_MAX) {
    throw new Error(`egress socket path is longer than ${SOCKET_PATH_BYTES_MAX} bytes: ${options.socketPath}`);
  }
  const limits: EgressProxyLimits = { ...egressProxyLimits, ...options.limits };
  const resolver = new TargetResolver(limits, options.dnsServers ?? null);
  const room = new ProxyRoom(options.allow, limits, resolver);
  /** Every connection from the box, and those of them the http server serves (the ones the bound counts). */
  const open = new Set<Socket>();
  const served = new Set<Socket>();
  const http = httpServer(room);
  // Connections are accepted here and handed to the http server, so one over the bound gets
  // an answer that says why instead of a bare reset. Half-open as the http server's own:
  // a client that finished sending still gets its answer.
  const listener = createServer({ allowHalfOpen: true }, (socket) => {
    if (room.closed) return socket.destroy();
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    if (served.size >= limits.connectionsMax) return room.answerRaw(socket, { status: 503, text: room.tooMany() });
    served.add(socket);
    socket.once("close", () => served.delete(socket));
    http.emit("connection", socket);
  });
  await listen(listener, options.socketPath);
  try {
    if (options.boxUid !== null) await chown(options.socketPath, options.boxUid, options.boxUid);
    await chmod(options.socketPath, 0o600);
  } catch (error) {
    http.close(() => {});
    await new Promise((resolve) => listener.close(resolve));
    throw error;
  }

  let closing: Promise<EgressUsage> | null = null;
  return {
    socketPath: options.socketPath,
    usage: () => ({ ...room.usage }),
    close() {
      closing ??= (async () => {
        room.closed = true;
        resolver.cancel();
        const stopped = new Promise((resolve) => listener.close(resolve));
        // Stops the http server's connection checks; it reports that it was never listening.
        http.close(() => {});
        for (const socket of open) socket.destroy();
        room.cutAll();
        await stopped;
        await rm(options.socketPath, { force: true });
        return { ...room.usage };
      })();
      return closing;
    },
  };
}

function httpServer(room: ProxyRoom) {
  const { limits } = room;
  const server = createHttpServer({
    maxHeaderSize: limits.headerBytesMax,
    headersTimeout: limits.headerTimeoutMs,
    // A request body may take as long as it takes (an upload); idleness is what is bounded.
    requestTimeout: 0,
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: Math.min(limits.headerTimeoutMs, 30_000),
  });
  // Connections come from the listener in startEgressProxy, so this server never listens
  // itself; its connection checks (which enforce headersTimeout) start on "listening".
  server.emit("listening");
  server.maxHeadersCount = limits.headerCountMax;
  server.timeout = limits.idleTimeoutMs;
  // A bug in the proxy ends the one request it happened on, never the daemon.
  server.on("request", (request, response) => {
    void forward(room, request, response).catch((error) => room.answer(response, proxyError(error)));
  });
  server.on("connect", (request, socket: Socket, head: Buffer) => {
    void tunnel(room, request, socket, head).catch((error) => room.answerRaw(socket, proxyError(error)));
  });
  // A WebSocket (or other upgrade) over plain http would turn the connection into an
  // unmetered pipe the policy never saw; such clients tunnel instead (wss://, or CONNECT).
  server.on("upgrade", (_request, socket: Socket) => {
    room.answerRaw(socket, {
      status: 501,
      text: `${REFUSAL_PREFIX} protocol upgrades over plain http are not proxied; use wss:// or CONNECT`,
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    room.answerRaw(socket, clientErrorAnswer(error, limits));
  });
  return server;
}

/** Why the http parser gave up on a connection, in the proxy's words. */
function clientErrorAnswer(error: NodeJS.ErrnoException, limits: EgressProxyLimits): Answer {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return {
      status: 431,
      text: `${REFUSAL_PREFIX} the request head is larger than ${limits.headerBytesMax} bytes`,
    };
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { status: 408, text: `${REFUSAL_PREFIX} no whole request head within ${limits.headerTimeoutMs} ms` };
  }
  return {
    status: 400,
    text: `${REFUSAL_PREFIX} not an HTTP/1.1 request the proxy can read (${error.code ?? error.message})`,
  };
}

function proxyError(error: unknown): Answer {
  console.error("egress proxy:", error);
  return { status: 502, text: `${REFUSAL_PREFIX} proxy error: ${(error as Error).message}` };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
