/**
 * Everything the Worker needs built before it runs: the API reference's static assets, the
 * shell executor's guest bundle and the javascript executor's runtime. wrangler runs this
 * before `dev` and `deploy` ([build] in wrangler.toml); the test setup and the OpenAPI
 * generator run it too.
 */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const script of [
  "scripts/build-assets.ts",
  "scripts/build-shell.ts",
  "scripts/build-javascript.ts",
  "scripts/build-computerd.ts",
]) {
  execFileSync(process.execPath, [join(root, script)], { stdio: "inherit" });
}
