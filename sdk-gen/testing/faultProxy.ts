/**
 * A local HTTP proxy that forwards to a real Cubicle server and injects faults on request,
 * so both SDKs' retry, timeout and resume rules are tested against the real platform rather
 * than a mocked fetch. Faults are queued per request (method + path pattern) and consumed
 * in order; everything else passes through untouched, streams included.
 *
 * Tests drive it in-process (`proxy.add(...)`) or, from another language, over HTTP:
 * - `POST /__proxy/faults` with a `Fault` as JSON queues one;
 * - `DELETE /__proxy/faults` clears the queue;
 * - `GET /__proxy/log` lists the requests seen (method, path, Idempotency-Key, what happened);
 * - `DELETE /__proxy/log` empties that list.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FaultKind =
  /** Answer `status` at once, as the server would (problem+json), without forwarding. */
  | { kind: "status"; status: number; retryAfterSeconds?: number }
  /** Forward, but hold the answer back `delayMs` first (a slow server). */
  | { kind: "delay"; delayMs: number }
  /** Forward and let the server do the work, then drop the connection before answering. */
  | { kind: "drop" }
  /** Forward and stream the answer, then cut the connection after `afterBytes` of its body. */
  | { kind: "cut"; afterBytes: number };

export type Fault = FaultKind & {
  /** Which requests it applies to: an HTTP method (any when absent) and a regex on the path. */
  method?: string;
  path?: string;
  /** How many matching requests it affects; 1 when absent. */
  times?: number;
};

export interface LoggedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  lastEventId: string | null;
  /** The fault applied, or "pass". */
  outcome: FaultKind["kind"] | "pass";
}

export interface FaultProxy {
  url: string;
  add: (fault: Fault) => void;
  reset: () => void;
  log: LoggedRequest[];
  close: () => Promise<void>;
}

const CONTROL = "/__proxy/";

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const faults: (Fault & { left: number })[] = [];
  const log: LoggedRequest[] = [];

  function take(method: string, path: string): FaultKind | null {
    const index = faults.findIndex(
      (f) => (f.method === undefined || f.method === method) && (f.path === undefined || new RegExp(f.path).test(path)),
    );
    const fault = faults[index];
    if (fault === undefined) return null;
    fault.left -= 1;
    if (fault.left <= 0) faults.splice(index, 1);
    return fault;
  }

  function control(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const what = `${req.method} ${req.url?.slice(CONTROL.length)}`;
    if (what === "POST faults") {
      const fault = JSON.parse(body.toString("utf8")) as Fault;
      faults.push({ ...fault, left: fault.times ?? 1 });
    } else if (what === "DELETE faults") faults.length = 0;
    else if (what === "DELETE log") log.length = 0;
    else if (what !== "GET log") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(what === "GET log" ? log : {}));
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, fault: FaultKind | null) {
    const upstreamRequest = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      async (answer) => {
        if (fault?.kind === "drop") {
          answer.resume();
          answer.on("end", () => res.socket?.destroy());
          return;
        }
        if (fault?.kind === "delay") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (res.destroyed) return void answer.destroy();
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (fault?.kind !== "cut") return void answer.pipe(res);
        let sent = 0;
        answer.on("data", (chunk: Buffer) => {
          const room = fault.afterBytes - sent;
          if (room <= 0) return;
          res.write(chunk.subarray(0, room));
          sent += Math.min(room, chunk.length);
          // The socket goes without a proper end of the chunked body: a dropped connection.
          if (sent >= fault.afterBytes) {
            setTimeout(() => {
              res.socket?.destroy();
              answer.destroy();
            }, 20);
          }
        });
        answer.on("end", () => res.end());
      },
    );
    upstreamRequest.on("error", () => res.socket?.destroy());
    // A client that gave up (a timeout) ends the upstream call too, as a real server would see.
    res.on("close", () => upstreamRequest.destroy());
    upstreamRequest.end(body);
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.url?.startsWith(CONTROL)) return control(req, res, body);
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", "http://proxy").pathname;
    const fault = take(method, path);
    log.push({
      method,
      path,
      idempotencyKey: (req.headers["idempotency-key"] as string | undefined) ?? null,
      lastEventId: (req.headers["last-event-id"] as string | undefined) ?? null,
      outcome: fault?.kind ?? "pass",
    });
    if (fault?.kind === "status") {
      const headers: Record<string, string> = {
        "content-type": "application/problem+json",
        "x-request-id": "req_proxy",
      };
      if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
      const code = fault.status === 429 ? "rate_limited" : fault.status >= 500 ? "executor_unavailable" : "bad_request";
      const problem = {
        type: `urn:cubicle:error:${code}`,
        title: "Injected",
        status: fault.status,
        detail: "injected by the fault proxy",
        code,
        requestId: "req_proxy",
      };
      return void res.writeHead(fault.status, headers).end(JSON.stringify(problem));
    }
    forward(req, res, body, fault);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add: (fault) => faults.push({ ...fault, left: fault.times ?? 1 }),
    reset: () => {
      faults.length = 0;
      log.length = 0;
    },
    log,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
