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

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * Compiles the C files in `dir` into `binary` when it is missing or older than any of them
 * (the .h files count too); `reason` says why there is none. Every helper program of
 * computerd is built this way, with the same flags.
 */
export async function ensureCProgram(dir: string, binary: string): Promise<BuildResult> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".c") || name.endsWith(".h"))
    .map((name) => join(dir, name));
  const built = mtimeMs(binary);
  if (built >= 0 && files.every((file) => mtimeMs(file) <= built)) return { ok: true, path: binary, built: false };
  mkdirSync(dirname(binary), { recursive: true });
  const cFiles = files.filter((file) => file.endsWith(".c"));
  try {
    await promisify(execFile)("cc", [...compileFlags, "-o", binary, ...cFiles]);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") return { ok: false, reason: "no C compiler (cc) on PATH: install gcc and libc6-dev" };
    return { ok: false, reason: `cc failed: ${(e.stderr ?? e.message).trim()}` };
  }
  return { ok: true, path: binary, built: true };
}

/** Builds the helper when it is missing or stale; `reason` says why there is none. */
export function ensureFanotifyBinary(): Promise<BuildResult> {
  return ensureCProgram(here, fanotifyBinary);
}

/** The command-line entry of a build script: builds, prints what it did, exits 1 when it cannot. */
export async function buildFromCommandLine(name: string, ensure: () => Promise<BuildResult>): Promise<void> {
  const result = await ensure();
  if (!result.ok) {
    console.error(`${name}: ${result.reason}`);
    process.exit(1);
  }
  console.log(`${result.built ? "built" : "up to date:"} ${result.path}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildFromCommandLine("cubicle-fanotify", ensureFanotifyBinary);
}
