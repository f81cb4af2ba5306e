/**
 * Reading a daemon's `GET /healthz` (ComputerdHealth) and deciding from it which computer
 * is idle: the supervisor's only view into whether a daemon is in use.
 */
import type { ComputerdHealth } from "../wire/index.ts";

export interface HealthReading extends ComputerdHealth {
  /**
   * When the question was sent. The daemon measured `idleMs` later than that, so
   * `atMs - idleMs` is never later than its real last activity: latency under load can make
   * a daemon look idler than it is by that latency, never busier.
   */
  atMs: number;
}

/** The daemon's health, or null when it does not answer in time (busy or hung: not idle). */
export async function readHealth(port: number, secret: string, timeoutMs: number): Promise<HealthReading | null> {
  const atMs = Date.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, {
      headers: { authorization: `Bearer ${secret}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Partial<ComputerdHealth>;
    if (typeof body.idleMs !== "number" || typeof body.running !== "number") return null;
    const mount = body.mount === "native" || body.mount === "fuse" ? body.mount : null;
    return { ok: true, idleMs: body.idleMs, running: body.running, session: body.session === true, mount, atMs };
  } catch {
    return null;
  }
}

/**
 * How long a computer has been idle, or null if it is in use. The supervisor's own last
 * `ensure` counts as activity too: a caller that just asked for the computer is about to
 * open a session, even though the daemon has not seen it yet.
 */
export function idleForMs(health: HealthReading | null, lastEnsuredMs: number, nowMs = Date.now()): number | null {
  if (!health || health.running > 0) return null;
  const lastActiveMs = Math.max(health.atMs - health.idleMs, lastEnsuredMs);
  return Math.max(0, nowMs - lastActiveMs);
}
