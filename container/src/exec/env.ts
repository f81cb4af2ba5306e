/**
 * The environment a command sees in its box: fixed defaults (nothing of the daemon's own
 * environment leaks, in particular not COMPUTERD_SECRET), then the request's variables.
 */
import { boxLimits, execEnvDefaults, execEnvTrust } from "../limits.ts";

export function commandEnv(cwd: string, requested: Record<string, string>): Record<string, string> {
  return { ...execEnvDefaults, ...execEnvTrust, HOME: boxLimits.home, USER: "user", PWD: cwd, ...requested };
}
