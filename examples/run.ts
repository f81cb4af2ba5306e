/**
 * `npm run example <name>`: runs examples/<name>/main.ts with the repository's Node 24
 * against `CUBICLE_BASE_URL` (default: the platform `npm start` serves).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const name = process.argv[2];
const examples = readdirSync(import.meta.dirname, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(import.meta.dirname, entry.name, "main.ts")))
  .map((entry) => entry.name);
if (!name || !examples.includes(name)) {
  console.error(`usage: npm run example <${examples.join("|")}>`);
  process.exit(2);
}
// `cubicle-source`: the examples run the SDK from its sources, as the rest of the repository
// does (sdk-gen/typescript/package.json), so they need no build first.
const result = spawnSync(
  process.execPath,
  ["--conditions=cubicle-source", join(import.meta.dirname, name, "main.ts")],
  {
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
