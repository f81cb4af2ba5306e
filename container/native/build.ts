/**
 * Builds the native mode's fanotify helper, `.build/native/cubicle-fanotify`, from the C
 * files beside this script, when it is missing or older than any of them. It needs a C
 * compiler and libc headers (Debian: gcc, libc6-dev); without them it says so, and computerd
 * runs the FUSE mode instead. The container image builds the same files in a stage of its
 * own (container/Dockerfile). Run directly, it builds and exits 1 when it cannot.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
export const fanotifyBinary = join(root, ".build/native/cubicle-fanotify");

/** The compiler invocation, also written out in the Dockerfile's build stage. */
export const compileFlags = ["-O2", "-Wall", "-Wextra", "-pthread"];

export type BuildResult = { ok: true; path: string; built: boolean } | { ok: false; reason: string };

function sources(): string[] {
  return readdirSync(here)
    .filter((name) => name.endsWith(".c") || name.endsWith(".h"))
    .map((name) => join(here, name));
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Builds the helper when it is missing or stale; `reason` says why there is none. */
export async function ensureFanotifyBinary(): Promise<BuildResult> {
  const files = sources();
  const built = mtimeMs(fanotifyBinary);
  if (built >= 0 && files.every((file) => mtimeMs(file) <= built))
    return { ok: true, path: fanotifyBinary, built: false };
  mkdirSync(dirname(fanotifyBinary), { recursive: true });
  const cFiles = files.filter((file) => file.endsWith(".c"));
  try {
    await promisify(execFile)("cc", [...compileFlags, "-o", fanotifyBinary, ...cFiles]);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") {
      return { ok: false, reason: "no C compiler (cc) on PATH: install gcc and libc6-dev for the native mode" };
    }
    return { ok: false, reason: `cc failed: ${(e.stderr ?? e.message).trim()}` };
  }
  return { ok: true, path: fanotifyBinary, built: true };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await ensureFanotifyBinary();
  if (!result.ok) {
    console.error(`cubicle-fanotify: ${result.reason}`);
    process.exit(1);
  }
  console.log(`${result.built ? "built" : "up to date:"} ${result.path}`);
}
