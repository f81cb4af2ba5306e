/**
 * The e2e project's global setup: starts the one platform the test files share
 * (sharedPlatform.ts) before the first file and stops it after the last. A start and stop
 * take 5–10 s on a 2-core machine (migrations, the supervisor, wrangler dev); when each of
 * the fourteen files paid that, it was nearly half of the project's time.
 */
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startPlatform } from "./platform.ts";
import type { SharedPlatformInfo } from "./sharedPlatform.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const platform = await startPlatform();
  // The test files run in other processes: they read the output from a file.
  const logFile = join(platform.stateDir, "platform.log");
  writeFileSync(logFile, platform.output());
  platform.process.stdout?.on("data", (chunk) => appendFileSync(logFile, chunk));
  platform.process.stderr?.on("data", (chunk) => appendFileSync(logFile, chunk));
  const info: SharedPlatformInfo = { url: platform.url, stateDir: platform.stateDir, logFile };
  project.provide("sharedPlatform", info);
  return async () => {
    await platform.stop();
    rmSync(platform.stateDir, { recursive: true, force: true });
  };
}
