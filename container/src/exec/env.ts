/**
 * The environment a command sees: a short allow-list (nothing of the daemon's own
 * environment leaks, in particular not COMPUTERD_SECRET), then the request's variables.
 */
import { userInfo } from "node:os";
import { execEnvDefaults, execEnvPassthrough } from "../limits.ts";

export function commandEnv(home: string, cwd: string, requested: Record<string, string>): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of execEnvPassthrough) {
    const value = process.env[name];
    if (value) inherited[name] = value;
  }
  return {
    ...execEnvDefaults,
    ...inherited,
    HOME: home,
    USER: userInfo().username,
    PWD: cwd,
    ...requested,
  };
}
