/**
 * The images directory: `<imagesDir>/<hash>` is a finished image, whose
 * `.cubicle-image.json` is written before the directory is renamed into place, so a
 * directory of that name with that file is complete. `.building-<hash>-<pid>` is a build
 * in progress (or a crashed one, when the pid is dead), `build-<hash>.log` its full log,
 * `.apt-cache` the Debian archives of the last build, `.lock` the build lock (lock.ts).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { isAlive } from "./lock.ts";

export const META_FILE = ".cubicle-image.json";

/** What `<image>/.cubicle-image.json` says about the image. */
export interface ImageMeta {
  hash: string;
  /** The package names of packages.txt, as given to mmdebstrap (their dependencies come too). */
  packages: string[];
  nodeVersion: string;
  npmVersion: string;
  suite: string;
  format: number;
  /** ISO 8601. */
  builtAt: string;
  buildMs: number;
  /** Apparent size of every file in the tree (`du -sb`). */
  sizeBytes: number;
}

export const imagePaths = {
  image: (imagesDir: string, hash: string) => join(imagesDir, hash),
  building: (imagesDir: string, hash: string) => join(imagesDir, `.building-${hash}-${process.pid}`),
  log: (imagesDir: string, hash: string) => join(imagesDir, `build-${hash}.log`),
  lock: (imagesDir: string) => join(imagesDir, ".lock"),
  aptCache: (imagesDir: string) => join(imagesDir, ".apt-cache"),
  aptCacheNext: (imagesDir: string) => join(imagesDir, `.apt-cache-${process.pid}`),
};

export function readMeta(imageDir: string): ImageMeta | null {
  try {
    return JSON.parse(readFileSync(join(imageDir, META_FILE), "utf8")) as ImageMeta;
  } catch {
    return null;
  }
}

/** True when `<imagesDir>/<hash>` is a finished image of that hash. */
export function isReady(imagesDir: string, hash: string): boolean {
  return readMeta(imagePaths.image(imagesDir, hash))?.hash === hash;
}

/** How long the newest finished image in the directory took to build, or null when there is none. */
export function lastBuildMs(imagesDir: string): number | null {
  const metas = existsSync(imagesDir)
    ? readdirSync(imagesDir)
        .filter((name) => /^[0-9a-f]{16}$/.test(name))
        .map((name) => readMeta(join(imagesDir, name)))
        .filter((meta): meta is ImageMeta => meta !== null)
    : [];
  metas.sort((a, b) => b.builtAt.localeCompare(a.builtAt));
  return metas[0]?.buildMs ?? null;
}

/**
 * Removes every other finished image, its log, and what dead builders left (`.building-…`
 * and `.apt-cache-…` of a pid that is gone). Answers what it removed. Run by the builder
 * that just put `keepHash` in place, under the lock.
 */
export async function pruneImages(imagesDir: string, keepHash: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(imagesDir)) {
    const leftover = /^\.(?:building-[0-9a-f]{16}|apt-cache)-(\d+)$/.exec(name);
    const old = /^[0-9a-f]{16}$/.test(name) && name !== keepHash;
    const oldLog = /^build-([0-9a-f]{16})\.log$/.exec(name);
    if (old || (leftover && !isAlive(Number(leftover[1]))) || (oldLog && oldLog[1] !== keepHash)) {
      await removeTree(join(imagesDir, name));
      removed.push(name);
    }
  }
  return removed;
}

/**
 * `rm -rf`, except that it refuses a tree with anything mounted inside: a build killed
 * outside its private mount namespace could leave the host's /proc or /dev bound in there,
 * and deleting through such a mount deletes the host's files.
 */
export async function removeTree(path: string): Promise<void> {
  const absolute = resolve(path);
  const mountinfo = await readFile("/proc/self/mountinfo", "utf8");
  const mounted = mountinfo
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .filter((point) => point === absolute || point.startsWith(absolute + sep));
  if (mounted.length > 0) throw new Error(`not removing ${absolute}: ${mounted.join(", ")} is mounted inside`);
  await rm(absolute, { recursive: true, force: true });
}
