/**
 * The local edge: what Cloudflare's edge does in front of the deployed Worker, done by
 * `npm start` in front of `wrangler dev`, which does not do it. It listens on PORT and
 * forwards every request to wrangler dev on a loopback port of its own, and on the way:
 *
 * - **says who the client is**: `CF-Connecting-IP` is set to the socket peer, replacing any
 *   the client sent (wrangler dev passes a client's own through untouched), and
 *   `Cubicle-Edge-Secret` proves to the Worker that this edge set it (api/src/clientAddress.ts);
 * - **refuses from the headers alone** with the Worker's own rule (api/src/requestShape.ts):
 *   more headers than the gateway takes (431; wrangler dev answers a 500 DataCloneError
 *   past about 1,000), and a `Content-Length` over the route's limit (413, at once: wrangler
 *   dev answers nothing until the promised body has arrived, even when the Worker has);
 * - **never shows the runtime's own error pages**: an error answer that did not come from
 *   the Worker (no `X-Request-Id`: a crash inside wrangler dev) becomes an opaque problem+json
 *   500, and what it said is printed here for the developer, since it names host paths.
 *
 * Everything else passes through as it came: bodies and event streams both ways unbuffered,
 * WebSocket upgrades spliced.
 */
import { Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { ApiError, ERROR_CODES, problemJson } from "../api/src/errors.ts";
import { headerRefusal } from "../api/src/requestShape.ts";
import { newId } from "../tenants/ids.ts";

export interface LocalEdgeOptions {
  /** Where the edge listens (PORT). */
  host: string;
  port: number;
  /** Where wrangler dev listens. */
  upstreamPort: number;
  /** Passed to the Worker as the `LOCAL_EDGE_SECRET` var, and sent with every request. */
  secret: string;
}

/** Headers that describe one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
/**
 * Headers only this edge may set, and `Expect`, which it answers itself: a client waiting for
 * `100 Continue` gets it here, or gets its refusal without sending the body at all.
 */
const EDGE_SET = new Set(["cf-connecting-ip", "cubicle-edge-secret", "expect"]);
/** Generous for cookies and tokens, and still a bound (Node's default is 16 KiB). */
const HEADER_BYTES_MAX = 64 * 1024;

export function startLocalEdge(options: LocalEdgeOptions): Promise<Server> {
  const agent = new Agent({ keepAlive: true });
  const server = createServer({ maxHeaderSize: HEADER_BYTES_MAX, requestTimeout: 0 }, (req, res) =>
    forward(options, agent, req, res),
  );
  // Count every header (Node stops at 2,000 by default and drops the rest silently).
  server.maxHeadersCount = 0;
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (!refusalOf(req)) res.writeContinue();
    forward(options, agent, req, res);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => splice(options, req, socket, head));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const problem = tooLarge
      ? new ApiError("request_headers_too_large", `request headers may total at most ${HEADER_BYTES_MAX} bytes`)
      : new ApiError("bad_request", "the request is not well-formed HTTP/1.1");
    socket.end(rawProblem(problem));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}

function forward(options: LocalEdgeOptions, agent: Agent, req: IncomingMessage, res: ServerResponse) {
  const refused = refusalOf(req);
  if (refused) {
    // The body is never read, so the connection cannot carry another request: close it.
    return sendProblem(res, refused, { connection: "close" });
  }
  const upstream = request({
    host: "127.0.0.1",
    port: options.upstreamPort,
    method: req.method,
    path: req.url,
    headers: forwardedHeaders(req, options.secret),
    agent,
    setHost: false,
  });
  upstream.on("response", (answer) => {
    if ((answer.statusCode ?? 500) >= 500 && answer.headers["x-request-id"] === undefined) {
      return hideRuntimeError(req, res, answer);
    }
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
    answer.pipe(res);
  });
  upstream.on("error", (error) => {
    console.error(`cubicle: local edge: ${req.method} ${req.url} failed upstream: ${error.message}`);
    if (!res.headersSent) sendProblem(res, new ApiError("internal", "the local server failed to answer; retry"));
    else res.destroy();
  });
  // A client that goes away takes its request with it.
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

/** The Worker's own header rule, applied before anything is forwarded. */
function refusalOf(req: IncomingMessage): ApiError | null {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const contentLength = req.headers["content-length"] ?? null;
  const refused = headerRefusal(req.method ?? "GET", path, req.rawHeaders.length / 2, contentLength);
  return refused ? new ApiError(refused.code, refused.detail) : null;
}

function forwardedHeaders(req: IncomingMessage, secret: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (HOP_BY_HOP.has(name) || EDGE_SET.has(name) || values === undefined) continue;
    // Repeated headers (cookies, say) stay repeated; Node wants a lone value as a string.
    headers[name] = values.length === 1 ? (values[0] as string) : values;
  }
  headers["cf-connecting-ip"] = peerAddress(req.socket);
  headers["cubicle-edge-secret"] = secret;
  return headers;
}

/** The socket peer as Cloudflare spells it: IPv4 without the IPv6-mapped prefix. */
function peerAddress(socket: Socket): string {
  const address = socket.remoteAddress ?? "unknown";
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}

/** Response headers as a flat list, less those that described the connection to wrangler dev. */
function endToEnd(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!HOP_BY_HOP.has(name.toLowerCase())) kept.push(name, raw[i + 1] as string);
  }
  return kept;
}

/** Prints what the runtime said (it names host paths and lines) and answers an opaque 500. */
function hideRuntimeError(req: IncomingMessage, res: ServerResponse, answer: IncomingMessage) {
  let said = "";
  answer.setEncoding("utf8");
  answer.on("data", (chunk: string) => {
    if (said.length < 4096) said += chunk;
  });
  answer.on("end", () => {
    console.error(`cubicle: local edge: the runtime answered ${answer.statusCode} to ${req.method} ${req.url}:`);
    console.error(said.trimEnd());
    sendProblem(res, new ApiError("internal", "an unexpected error occurred; see the terminal running npm start"));
  });
}

function sendProblem(res: ServerResponse, error: ApiError, headers: Record<string, string> = {}) {
  const requestId = newId("req");
  res.writeHead(ERROR_CODES[error.code].status, {
    ...headers,
    "content-type": "application/problem+json",
    "x-request-id": requestId,
  });
  res.end(problemJson(error, requestId));
}

/** A whole HTTP/1.1 answer for a socket that never became a request (a malformed head). */
function rawProblem(error: ApiError): string {
  const requestId = newId("req");
  const body = problemJson(error, requestId);
  const { status, title } = ERROR_CODES[error.code];
  return [
    `HTTP/1.1 ${status} ${title}`,
    "content-type: application/problem+json",
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}

/** A WebSocket (or other upgrade) request: the head is rewritten as for any request, then bytes flow both ways. */
function splice(options: LocalEdgeOptions, req: IncomingMessage, socket: Socket, head: Buffer) {
  const refused = refusalOf(req);
  if (refused) return socket.end(rawProblem(refused));
  const upstream = connect(options.upstreamPort, "127.0.0.1", () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (const [name, values] of Object.entries(forwardedHeaders(req, options.secret))) {
      for (const value of [values].flat()) lines.push(`${name}: ${value}`);
    }
    lines.push("connection: upgrade", `upgrade: ${req.headers.upgrade ?? "websocket"}`, "", "");
    upstream.write(lines.join("\r\n"));
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on("error", () => socket.destroy());
  socket.on("error", () => upstream.destroy());
}

/** A loopback port nobody listens on now, for wrangler dev behind the edge. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
