/**
 * Builds `.build/native/cubicle-mknod` (the device-node supervisor and its launcher, one
 * program: README.md) from the C files beside this script, when it is missing or older than
 * any of them, with the same compiler and flags as the fanotify helper (../build.ts). Without
 * a compiler it says so, and computerd runs commands without it: a device mknod in the box
 * then gets the kernel's EPERM. The container image builds it in the same stage as the
 * fanotify helper (container/Dockerfile). Run directly, it builds and exits 1 when it cannot.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildResult, buildFromCommandLine, ensureCProgram } from "../build.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const mknodBinary = join(here, "../../../.build/native/cubicle-mknod");

/** Builds the program when it is missing or stale; `reason` says why there is none. */
export function ensureMknodBinary(): Promise<BuildResult> {
  return ensureCProgram(here, mknodBinary);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildFromCommandLine("cubicle-mknod", ensureMknodBinary);
}
