/**
 * The environment a command sees in its box: fixed defaults (nothing of the daemon's own
 * environment leaks, in particular not COMPUTERD_SECRET), then the request's variables.
 *
 * Root keeps the box user's HOME: the image's /root is read-only, and `npm install -g` or
 * `pip install` as root must find a writable home.
 */
import { boxLimits, execEnvDefaults, execEnvTrust } from "../limits.ts";
import type { BoxUser } from "../sandbox/box.ts";

export function commandEnv(cwd: string, requested: Record<string, string>, user: BoxUser): Record<string, string> {
  return { ...execEnvDefaults, ...execEnvTrust, HOME: boxLimits.home, USER: user, PWD: cwd, ...requested };
}
