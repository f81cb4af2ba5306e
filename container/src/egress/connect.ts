/**
 * A TCP connection to one of a target's checked addresses, tried in order, each attempt
 * bounded by the connect timeout. The proxy never hands a name to `net.connect`, so what it
 * connects to is exactly what resolve.ts checked.
 */
import { connect, type Socket } from "node:net";
import { unreachableText } from "../../wire/egress/refusal.ts";
import type { EgressProxyLimits } from "./limits.ts";
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
