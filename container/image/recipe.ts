/**
 * What an image is made from, and the hash that names it. The hash covers every input that
 * changes the tree: the package list, the Node and npm copied in, the customize script, the
 * dpkg excludes, the Debian suite and FORMAT (the steps build.ts takes, bumped by hand when
 * they change). Equal hash, equal recipe; a new recipe gets a new directory, so an image in
 * use is never changed under a running box.
 *
 * Debian's own updates do not change the hash: an image keeps the package versions of the
 * day it was built until one of the inputs changes (docs/container-image.md says how to force
 * a rebuild).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findNodeDistribution, type NodeDistribution } from "./node.ts";

/** The build steps' version; bump it when build.ts or mmdebstrap.ts changes what lands in the tree. */
export const IMAGE_FORMAT = 2;
export const DEBIAN_SUITE = "bookworm";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, "../..");
export const recipeFiles = {
  packages: join(here, "packages.txt"),
  customize: join(here, "customize.sh"),
  dpkgConfig: join(here, "dpkg.cfg"),
} as const;

export interface Recipe {
  /** 16 hex digits of the sha256 over every input: the image's directory name. */
  hash: string;
  packages: string[];
  node: NodeDistribution;
}

/** The package names in packages.txt: lines starting with `#` are comments, names are separated by white space. */
export function parsePackages(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !line.startsWith("#"))
    .flatMap((line) => line.split(/\s+/))
    .filter((name) => name !== "");
}

export function imageRecipe(env: NodeJS.ProcessEnv = process.env): Recipe {
  const packagesText = readFileSync(recipeFiles.packages, "utf8");
  const node = findNodeDistribution(repoRoot, env);
  const hash = createHash("sha256");
  const inputs = [
    `format ${IMAGE_FORMAT} suite ${DEBIAN_SUITE} node ${node.nodeVersion} npm ${node.npmVersion}`,
    packagesText,
    readFileSync(recipeFiles.customize, "utf8"),
    readFileSync(recipeFiles.dpkgConfig, "utf8"),
  ];
  // A NUL between inputs, so text moved from the end of one to the start of the next changes the hash.
  for (const input of inputs) hash.update(input).update("\0");
  return { hash: hash.digest("hex").slice(0, 16), packages: parsePackages(packagesText), node };
}
