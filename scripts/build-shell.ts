/**
 * Bundles the shell executor's guest (executors/shell/guest/index.ts, just-bash included)
 * into one ES module for the Worker Loader, and writes it where the host imports it:
 *
 * - `.build/shell/guest.txt`: the module source. A `.txt` file because wrangler and the
 *   Workers vitest plugin both import `**\/*.txt` as a Text module by default, and the
 *   generated Worker types already declare `*.txt` imports as strings.
 * - `.build/shell/version.txt`: 16 hex digits of the source's SHA-256. The host puts it in
 *   the Dynamic Worker's id, so a new bundle never reuses an isolate holding the old one.
 *
 * just-bash's browser build is chosen (`conditions: ["browser"]`): it leaves out the
 * node:fs-backed filesystems; its only Node import is node:zlib (gzip), which the guest
 * gets from `nodejs_compat`. Run by hand, by the test setup, and before dev and deploy.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleGuest } from "./bundleGuest.ts";
import { writeIfChanged } from "./writeIfChanged.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".build/shell");

export async function buildShellGuest(): Promise<{ bytes: number; version: string }> {
  const output = { contents: await bundleGuest("executors/shell/guest/index.ts") };
  const version = createHash("sha256").update(output.contents).digest("hex").slice(0, 16);
  mkdirSync(outDir, { recursive: true });
  writeIfChanged(join(outDir, "guest.txt"), output.contents);
  writeIfChanged(join(outDir, "version.txt"), version);
  return { bytes: output.contents.byteLength, version };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bytes, version } = await buildShellGuest();
  console.log(`.build/shell/guest.txt: ${(bytes / 1024).toFixed(0)} KiB, version ${version}`);
}
