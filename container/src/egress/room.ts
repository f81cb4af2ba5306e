/**
 * What the parts of one exec's proxy share: its policy (allow list, limits), its resolver,
 * its byte count, the upstream connections it has open (for the bound, and to cut them when
 * it closes) and how it answers when it does not forward.
 */
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { REFUSAL_PREFIX } from "../../wire/egress/refusal.ts";
import type { EgressProxyLimits } from "./limits.ts";
import type { TargetResolver } from "./resolve.ts";
import type { Answer } from "./target.ts";

/** Bytes relayed so far; proxy.ts says exactly which. */
export interface EgressUsage {
  /** From the box towards the internet. */
  sentBytes: number;
  /** From the internet towards the box. */
  receivedBytes: number;
}

export class ProxyRoom {
  readonly usage: EgressUsage = { sentBytes: 0, receivedBytes: 0 };
  closed = false;
  private readonly upstreams = new Set<Socket>();
  private upstreamSlots = 0;

  readonly allow: readonly string[] | null;
  readonly limits: EgressProxyLimits;
  readonly resolver: TargetResolver;

  constructor(allow: readonly string[] | null, limits: EgressProxyLimits, resolver: TargetResolver) {
    this.allow = allow;
    this.limits = limits;
    this.resolver = resolver;
  }

  /**
   * Claims one of the upstream connections the proxy may have at once, from before the DNS
   * lookup until the connection closes; `release` gives it back (once).
   */
  takeUpstreamSlot(): { ok: true; release: () => void } | ({ ok: false } & Answer) {
    if (this.upstreamSlots >= this.limits.connectionsMax) {
      return { ok: false, status: 503, text: this.tooMany() };
    }
    this.upstreamSlots++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.upstreamSlots--;
      },
    };
  }

  /** An open upstream connection, cut when the proxy closes. */
  track(socket: Socket): void {
    this.upstreams.add(socket);
    socket.once("close", () => this.upstreams.delete(socket));
  }

  /** Cuts every upstream connection. */
  cutAll(): void {
    for (const socket of this.upstreams) socket.destroy();
  }

  tooMany(): string {
    return `${REFUSAL_PREFIX} this command already has ${this.limits.connectionsMax} connections open, the most it may have at once`;
  }

  /** The answer on a raw socket (a CONNECT, or before any request): written, then the socket is closed. */
  answerRaw(socket: Socket, answer: Answer): void {
    if (socket.destroyed) return;
    socket.end(rawResponse(answer));
    // Read and drop whatever the client still sends, so closing does not reset the
    // connection before the client has read the answer.
    socket.resume();
    socket.setTimeout(this.limits.headerTimeoutMs, () => socket.destroy());
  }

  /** The answer to a plain http request, closing its connection. */
  answer(response: ServerResponse, answer: Answer): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const body = `${answer.text}\n`;
    response.writeHead(answer.status, {
      "content-type": "text/plain; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    response.end(body);
  }
}

export function rawResponse(answer: Answer): string {
  const body = `${answer.text}\n`;
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}
