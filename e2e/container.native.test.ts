/**
 * The native mount mode through the shared platform (e2e/mountSuite.ts says what is
 * tested). `COMPUTERD_MOUNT_MODE=fuse` in the environment makes the platform, and so this
 * file's expectation, the FUSE fallback.
 */
import { describeMountSuite } from "./mountSuite.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
describeMountSuite(() => platform.url, process.env.COMPUTERD_MOUNT_MODE === "fuse" ? "fuse" : "native");
