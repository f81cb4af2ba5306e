/**
 * The supervisor's HTTP API, for the Worker's local ContainerHost. It listens on 127.0.0.1
 * only, and every route but `GET /healthz` needs `Authorization: Bearer <COMPUTERD_SECRET>`:
 * other local users can reach a loopback port, and starting a daemon runs code as root.
 *
 *   POST   /computers/{name}   ensure it runs → 200 ComputerInfo (after its ready line); 503 image_building
 *                              (Retry-After) while the box image builds, image_failed (Retry-After) once
 *                              after a failed build, which starts it again
 *   DELETE /computers/{name}   stop it → 204 once its processes and mount are gone (also when it was not running);
 *                              with ?forget=true also delete its replica (the workspace was deleted)
 *   GET    /computers          → 200 { computers: ComputerInfo[] }
 *   GET    /healthz            → 200 { ok: true, computers: n, image?: ImageStatus }
 *
 * Errors are problem+json `{ type, title, status, code, detail }` (errors.ts lists the codes).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { STATUS, SupervisorError } from "./errors.ts";
import { supervisorLimits } from "./limits.ts";
import type { Supervisor } from "./supervisor.ts";

export function createSupervisorServer(supervisor: Supervisor, secret: string): Server {
  const expected = digest(`Bearer ${secret}`);
  const server = createServer({ maxHeaderSize: supervisorLimits.requestHeaderBytesMax }, (request, response) => {
    handle(supervisor, expected, request)
      .then(({ status, body }) => send(response, status, body))
      .catch((error: unknown) => sendError(response, error));
  });
  // A POST waits for a daemon's start; the default request timeout would cut it off.
  server.requestTimeout = 0;
  return server;
}

async function handle(
  supervisor: Supervisor,
  expected: Buffer,
  request: IncomingMessage,
): Promise<{ status: number; body?: unknown }> {
  const path = new URL(request.url ?? "/", "http://supervisor").pathname;
  if (path === "/healthz" && request.method === "GET") {
    const image = supervisor.imageStatus();
    return { status: 200, body: { ok: true, computers: supervisor.list().length, ...(image ? { image } : {}) } };
  }
  // Digests of equal length make the comparison constant-time whatever the header holds.
  if (!timingSafeEqual(digest(request.headers.authorization ?? ""), expected)) {
    throw new SupervisorError("unauthorized", "send `Authorization: Bearer <COMPUTERD_SECRET>`");
  }
  if (path === "/computers") {
    if (request.method !== "GET") throw new SupervisorError("method_not_allowed", "GET /computers");
    return { status: 200, body: { computers: supervisor.list() } };
  }
  const match = /^\/computers\/([^/]+)$/.exec(path);
  if (!match) throw new SupervisorError("not_found", `no route ${path}`);
  const name = decodeName(match[1] as string);
  if (request.method === "POST") return { status: 200, body: await supervisor.ensure(name) };
  if (request.method === "DELETE") {
    const forget = new URL(request.url ?? "/", "http://supervisor").searchParams.get("forget") === "true";
    await (forget ? supervisor.purge(name) : supervisor.stop(name));
    return { status: 204 };
  }
  throw new SupervisorError("method_not_allowed", "POST or DELETE /computers/{name}");
}

function decodeName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SupervisorError("invalid_name", "the name is not valid percent-encoding");
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function send(
  response: ServerResponse,
  status: number,
  body?: unknown,
  type = "application/json",
  headers: Record<string, string> = {},
) {
  if (body === undefined) return response.writeHead(status).end();
  response.writeHead(status, { ...headers, "content-type": type }).end(JSON.stringify(body));
}

function sendError(response: ServerResponse, error: unknown) {
  const known = error instanceof SupervisorError ? error : new SupervisorError("internal", String(error));
  if (known.code === "internal") console.error("supervisor: request failed:", error);
  const status = STATUS[known.code];
  const title = known.code.replaceAll("_", " ");
  const body = { type: "about:blank", title, status, code: known.code, detail: known.message };
  const retry = known.retryAfterSeconds;
  send(response, status, body, "application/problem+json", retry === undefined ? {} : { "retry-after": String(retry) });
}
