/**
 * Timestamps of a first pull's and of a push's steps, for measuring where a large workspace's
 * first command waits and where an exec's answer waits on its push (issue 19). Off unless
 * COMPUTERD_TRACE=1; then each call writes one stderr line, `trace <epoch ms> <label>`, so a
 * bench can line them up with its own clock.
 */
import { COMPUTERD_ENV } from "../wire/index.ts";

const tracing = process.env[COMPUTERD_ENV.trace] === "1";

export function trace(label: string): void {
  if (tracing) process.stderr.write(`trace ${(performance.timeOrigin + performance.now()).toFixed(1)} ${label}\n`);
}
