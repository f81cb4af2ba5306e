/**
 * `npm run pack:cli [-- --out DIR]`: packs the CLI as a user installs it (`npm pack`, whose
 * prepack bundles it: build.ts) into .build/cli/ by default, and prints the tarball's path.
 * `npm install -g <that path>` then puts `cubicle` on the PATH.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = join(import.meta.dirname, "../..");
const { values } = parseArgs({ options: { out: { type: "string", default: join(root, ".build/cli") } } });
const out = resolve(values.out);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const npm = process.env.npm_execpath;
const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
const printed = execFileSync(command, [...args, "pack", "--json", "--pack-destination", out], {
  cwd: import.meta.dirname,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
});
const [packed] = JSON.parse(printed) as { filename: string }[];
if (!packed) throw new Error("npm pack printed no package");
console.log(join(out, packed.filename));
