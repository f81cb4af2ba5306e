/**
 * The words of an egress refusal, the same from both egress paths (the Worker-side gateway
 * and computerd's proxy), so a script can tell a refusal from an upstream's own answer
 * whichever executor it ran in.
 */
import { describeAllowList } from "./allowList.ts";

/** The body of every refusal starts with this. */
export const REFUSAL_PREFIX = "cubicle egress:";

/** `cubicle egress: refused <target>: <reason>; executors may reach only the public internet`. */
export function notPublicText(target: string, reason: string): string {
  return `${REFUSAL_PREFIX} refused ${target}: ${reason}; executors may reach only the public internet`;
}

/** `cubicle egress: refused <target>: not in this run's allow list (<first entries>)`. */
export function notAllowedText(target: string, allow: readonly string[]): string {
  return `${REFUSAL_PREFIX} refused ${target}: not in this run's allow list (${describeAllowList(allow)})`;
}

/** `cubicle egress: could not reach <target>: <why>`: the destination was fine, the network was not. */
export function unreachableText(target: string, why: string): string {
  return `${REFUSAL_PREFIX} could not reach ${target}: ${why}`;
}
