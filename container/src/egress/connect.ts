/**
 * A TCP connection to one of a target's checked addresses, tried in order, each attempt
 * bounded by the connect timeout. The proxy never hands a name to `net.connect`, so what it
 * connects to is exactly what resolve.ts checked.
 */
import { connect, type Socket } from "node:net";
import { unreachableText } from "../../wire/egress/refusal.ts";
import type { EgressProxyLimits } from "./limits.ts";
import type { ProxyRoom } from "./room.ts";
import type { Answer, Target } from "./target.ts";

export type Connected = { ok: true; socket: Socket } | ({ ok: false } & Answer);

export async function connectFirst(
  target: Target,
  addresses: readonly string[],
  limits: EgressProxyLimits,
): Promise<Connected> {
  let last: { timedOut: boolean; message: string } = { timedOut: false, message: "no address" };
  for (const address of addresses.slice(0, limits.connectAttemptsMax)) {
    const attempt = await connectOnce(address, target.port, limits.connectTimeoutMs);
    if (attempt.ok) return attempt;
    last = attempt;
  }
  return {
    ok: false,
    status: last.timedOut ? 504 : 502,
    text: unreachableText(target.label, last.message),
  };
}

function connectOnce(
  address: string,
  port: number,
  timeoutMs: number,
): Promise<{ ok: true; socket: Socket } | { ok: false; timedOut: boolean; message: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, noDelay: true, autoSelectFamily: false });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ ok: false, timedOut: true, message: `no answer from ${address} within ${timeoutMs} ms` });
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve({ ok: true, socket });
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, timedOut: false, message: `${address}: ${error.code ?? error.message}` });
    });
  });
}

/**
 * The path both kinds of request take upstream: an upstream slot, the name resolved and
 * checked, a connection to a checked address, then `use(socket)`. A refusal on the way goes
 * to `refuse`; a client gone meanwhile gets nothing and the socket is dropped. The slot is
 * held until `use` resolves.
 */
export async function withUpstream(
  room: ProxyRoom,
  target: Target,
  refuse: (answer: Answer) => void,
  clientGone: () => boolean,
  use: (socket: Socket) => Promise<void>,
): Promise<void> {
  const slot = room.takeUpstreamSlot();
  if (!slot.ok) return refuse(slot);
  try {
    const resolved = await room.resolver.resolve(target);
    if (!resolved.ok) return refuse(resolved);
    const connected = await connectFirst(target, resolved.addresses, room.limits);
    if (!connected.ok) return refuse(connected);
    if (room.closed || clientGone()) {
      connected.socket.destroy();
      return;
    }
    room.track(connected.socket);
    await use(connected.socket);
  } finally {
    slot.release();
  }
}
