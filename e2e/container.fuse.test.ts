/**
 * The FUSE fallback through a platform of its own whose computers are told to use it
 * (COMPUTERD_MOUNT_MODE=fuse): the same user-visible behaviour as the native mode
 * (e2e/mountSuite.ts), since hosts without fanotify pre-content events get this one.
 */
import { afterAll, beforeAll } from "vitest";
import { describeMountSuite } from "./mountSuite.ts";
import { type Platform, startPlatform } from "./platform.ts";

let platform: Platform;
beforeAll(async () => {
  platform = await startPlatform(undefined, { COMPUTERD_MOUNT_MODE: "fuse" });
});
afterAll(async () => {
  await platform?.stop();
});

describeMountSuite(() => platform.url, "fuse");
