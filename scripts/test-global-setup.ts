/** Builds what the Worker needs (static assets, the shell guest) once before the Workers tests start. */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  execFileSync(process.execPath, [join(root, "scripts/build.ts")], { stdio: "inherit" });
}
