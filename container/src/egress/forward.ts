/**
 * A plain http request in absolute form (`GET http://host/path HTTP/1.1`): once the target
 * passed the policy, the proxy sends it on over a new connection to one of the checked
 * addresses and streams the answer back. Hop-by-hop headers stay on their hop; Host is the
 * URL's (RFC 9112 3.2.2). Each request gets its own upstream connection, closed after it, so
 * every request is checked and no connection outlives the request it was opened for.
 *
 * What is counted: request body bytes the proxy passed upstream, and response body bytes it
 * passed back, as they travel (chunked framing removed, content encoding untouched: gzip is
 * counted compressed); not the heads.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { unreachableText } from "../../wire/egress/refusal.ts";
import { withUpstream } from "./connect.ts";
import type { ProxyRoom } from "./room.ts";
import { forwardTarget, isAnswer, type Target } from "./target.ts";

/** Headers that describe one connection, never forwarded (RFC 9110 7.6.1), plus the proxy's own. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "host",
]);

export async function forward(room: ProxyRoom, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const target = forwardTarget(request.url ?? "", room.allow);
  if (isAnswer(target)) return room.answer(response, target);
  await withUpstream(
    room,
    target,
    (answer) => room.answer(response, answer),
    () => request.destroyed,
    (socket) => {
      socket.setTimeout(room.limits.idleTimeoutMs, () => socket.destroy());
      return exchange(room, target, request, response, socket);
    },
  );
}

/** Sends the request over `socket` and the answer back; resolves when the upstream connection is gone. */
function exchange(
  room: ProxyRoom,
  target: Target,
  request: IncomingMessage,
  response: ServerResponse,
  socket: Socket,
): Promise<void> {
  return new Promise((resolve) => {
    socket.once("close", () => resolve());
    const upstream = httpRequest({
      method: request.method,
      path: `${target.url.pathname}${target.url.search}`,
      headers: forwardedHeaders(request.rawHeaders, target.url.host),
      setHost: false,
      createConnection: () => socket,
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      room.answer(response, { status: 502, text: unreachableText(target.label, error.code ?? error.message) });
      socket.destroy();
    });
    upstream.on("response", (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answeredHeaders(answer.rawHeaders));
      answer.on("data", (chunk: Buffer) => {
        room.usage.receivedBytes += chunk.byteLength;
      });
      answer.pipe(response);
      answer.on("error", () => response.destroy());
    });
    request.on("data", (chunk: Buffer) => {
      room.usage.sentBytes += chunk.byteLength;
    });
    request.pipe(upstream);
    // The box went away before the answer was complete: so does the upstream connection.
    response.on("close", () => socket.destroy());
  });
}

/**
 * The client's headers in order, flat as `rawHeaders` (which http.request takes too), without
 * hop-by-hop ones or those its Connection header names, and Host set to the URL's.
 */
function forwardedHeaders(raw: readonly string[], host: string): string[] {
  const named = connectionNamed(raw);
  const out = ["Host", host];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = (raw[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !named.has(lower)) out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

/** The upstream's response headers for the box, flat as writeHead takes them; the proxy frames the body itself. */
function answeredHeaders(raw: readonly string[]): string[] {
  const named = connectionNamed(raw);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = (raw[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || lower === "transfer-encoding") continue;
    out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

function connectionNamed(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== "connection") continue;
    for (const token of (raw[i + 1] as string).split(",")) named.add(token.trim().toLowerCase());
  }
  return named;
}
