/**
 * `npm run build` here (and `npm pack`'s prepack): bundles the CLI, with the TypeScript SDK
 * (from its sources), commander and cli-progress, into one file, dist/cubicle.mjs, which is
 * all the package ships.
 *
 * Why a bundle rather than dependencies: `@cubicle/sdk` is not on the registry yet (it is
 * packed from this repository), so a package that depended on it could not be installed
 * with `npm install -g` from its tarball alone; and one file with no dependencies installs
 * offline, in a second, with nothing to resolve or audit. commander and cli-progress are
 * small and have no dependencies of their own (cli-progress needs string-width's few).
 */
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const dist = join(here, "dist");
const outfile = join(dist, "cubicle.mjs");

rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(here, "src/main.ts")],
  outfile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // The SDK's sources, as everywhere in this repository (sdk-gen/typescript/package.json).
  conditions: ["cubicle-source"],
  // commander and cli-progress are CommonJS: give the bundle a `require` for their Node built-ins.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cubicleRequire } from 'node:module';\nconst require = __cubicleRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: "warning",
});
chmodSync(outfile, 0o755);
writeFileSync(join(dist, "THIRD_PARTY_LICENSES.txt"), thirdPartyLicenses(Object.keys(result.metafile.inputs)));

/** The license of every npm package the bundle took code from: their MIT licenses ask to travel with the code. */
function thirdPartyLicenses(inputs: string[]): string {
  const packages = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1] as string);
  }
  return [...packages]
    .sort()
    .map((dir) => {
      const { name, version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const license = readdirSync(dir).find((file) => /^licen[cs]e/i.test(file));
      const text =
        license && existsSync(join(dir, license)) ? readFileSync(join(dir, license), "utf8") : "(no license file)";
      return `${name}@${version}\n\n${text.trim()}\n`;
    })
    .join(`\n${"-".repeat(72)}\n\n`);
}
