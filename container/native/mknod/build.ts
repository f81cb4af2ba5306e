/**
 * Builds `.build/native/cubicle-mknod` (the device-node supervisor and its launcher, one
 * program: README.md) from the C files beside this script, when it is missing or older than
 * any of them, with the same compiler and flags as the fanotify helper (../build.ts). Without
 * a compiler it says so, and computerd runs commands without it: a device mknod in the box
 * then gets the kernel's EPERM. The container image builds it in the same stage as the
 * fanotify helper (container/Dockerfile). Run directly, it builds and exits 1 when it cannot.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type BuildResult, compileFlags } from "../build.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const mknodBinary = join(here, "../../../.build/native/cubicle-mknod");

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Builds the program when it is missing or stale; `reason` says why there is none. */
export async function ensureMknodBinary(): Promise<BuildResult> {
  const files = readdirSync(here)
    .filter((name) => name.endsWith(".c") || name.endsWith(".h"))
    .map((name) => join(here, name));
  const built = mtimeMs(mknodBinary);
  if (built >= 0 && files.every((file) => mtimeMs(file) <= built)) return { ok: true, path: mknodBinary, built: false };
  mkdirSync(dirname(mknodBinary), { recursive: true });
  const cFiles = files.filter((file) => file.endsWith(".c"));
  try {
    await promisify(execFile)("cc", [...compileFlags, "-o", mknodBinary, ...cFiles]);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") return { ok: false, reason: "no C compiler (cc) on PATH: install gcc and libc6-dev" };
    return { ok: false, reason: `cc failed: ${(e.stderr ?? e.message).trim()}` };
  }
  return { ok: true, path: mknodBinary, built: true };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await ensureMknodBinary();
  if (!result.ok) {
    console.error(`cubicle-mknod: ${result.reason}`);
    process.exit(1);
  }
  console.log(`${result.built ? "built" : "up to date:"} ${result.path}`);
}
