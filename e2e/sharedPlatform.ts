/**
 * The platform the e2e project starts once (globalSetup.ts) and every test file shares,
 * unless it must own one: a file that stops or restarts the platform, or inspects the
 * processes of its state directory, calls startPlatform() instead. A file on the shared
 * platform signs up its own tenants and assumes nothing about anything else on it: other
 * files' tenants, workspaces and computers are there too.
 */
import { readFileSync } from "node:fs";
import { inject } from "vitest";

/** What globalSetup.ts hands each test file; plain data, since it crosses into the test workers. */
export interface SharedPlatformInfo {
  url: string;
  stateDir: string;
  /** Everything the platform prints goes here, as it prints it. */
  logFile: string;
}

declare module "vitest" {
  interface ProvidedContext {
    sharedPlatform: SharedPlatformInfo;
  }
}

export interface SharedPlatform {
  url: string;
  stateDir: string;
  /** Everything the platform has printed so far, for failure messages. */
  output: () => string;
}

export function sharedPlatform(): SharedPlatform {
  const { url, stateDir, logFile } = inject("sharedPlatform");
  return { url, stateDir, output: () => readFileSync(logFile, "utf8") };
}
