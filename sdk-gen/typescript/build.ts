/**
 * `npm run build` here (and `npm pack`'s prepack): compiles the SDK to dist/, ES modules plus
 * `.d.ts`, which is all the package ships. The repository itself runs the sources through
 * the `cubicle-source` export condition; users get dist/.
 *
 * tsc rewrites the sources' `.ts` import paths to `.js` in the JavaScript it emits but not in
 * the declarations, and TypeScript before 5.0 (and other readers of `.d.ts`) refuse a `.ts`
 * path there; so they are rewritten here, the way tsc rewrites the JavaScript. Only
 * relative paths: the SDK imports nothing else.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const here = import.meta.dirname;
const dist = join(here, "dist");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(here, "tsconfig.build.json")], { stdio: "inherit" });

const relativeTsImport = /(from\s+|import\s*\(\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, "utf8");
  const rewritten = text.replace(relativeTsImport, "$1$2$3.js$2");
  if (rewritten !== text) writeFileSync(file, rewritten);
}
