/**
 * Bundles the javascript executor's guest runtime for the Worker Loader, and writes it where
 * the host imports it as text (executors/javascript/runtimeCode.ts):
 *
 * - `.build/javascript/runtime.txt`: executors/javascript/guest/index.ts, the main module of
 *   every run's Dynamic Worker (console, process, node:fs shim, guard; ~30 KiB).
 * - `.build/javascript/git.txt`: executors/javascript/guest/git.ts with isomorphic-git, put
 *   in a run's module map only when the run imports `ws:git` (most of the size; a run that
 *   does not use git does not compile it).
 * - `.build/javascript/version.txt`: 16 hex digits of both bundles' SHA-256, for logs and tests.
 *
 * Both keep `node:*` and `cloudflare:workers` external (the isolate has nodejs_compat).
 * Run by scripts/build.ts, hence before dev, deploy and the tests.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleGuest } from "./bundleGuest.ts";
import { writeIfChanged } from "./writeIfChanged.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".build/javascript");

/** Function and class names stay: they appear in module code's stack traces and inspect() output. */
const bundle = (entry: string) => bundleGuest(entry, { keepNames: true });

export async function buildJavascriptRuntime(): Promise<{ runtimeBytes: number; gitBytes: number; version: string }> {
  const runtime = await bundle("executors/javascript/guest/index.ts");
  const git = await bundle("executors/javascript/guest/git.ts");
  const version = createHash("sha256").update(runtime).update(git).digest("hex").slice(0, 16);
  mkdirSync(outDir, { recursive: true });
  writeIfChanged(join(outDir, "runtime.txt"), runtime);
  writeIfChanged(join(outDir, "git.txt"), git);
  writeIfChanged(join(outDir, "version.txt"), version);
  return { runtimeBytes: runtime.byteLength, gitBytes: git.byteLength, version };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runtimeBytes, gitBytes, version } = await buildJavascriptRuntime();
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  console.log(`.build/javascript: runtime ${kib(runtimeBytes)}, git ${kib(gitBytes)}, version ${version}`);
}
