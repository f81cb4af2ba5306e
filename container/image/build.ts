/**
 * The box's read-only root image (docs/container-image.md): `ensureImage` answers the
 * image of the current recipe (recipe.ts), building it first when this machine has none.
 *
 * - The image lives at `<imagesDir>/<hash>`. It is built into a temporary directory beside
 *   it and renamed into place once complete, so a crash never leaves a half image that
 *   looks ready (store.ts).
 * - One build per images directory at a time (lock.ts): concurrent callers, in this process
 *   or in others (test processes, two `npm start`s), wait for the one that builds.
 * - Once the new image is in place, older images in the directory are deleted.
 *
 * CLI: `node container/image/build.ts [imagesDir]` builds or finds the image and prints
 * progress on stderr and the image's path on stdout (used by .ci/run and by hand).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { imageLimits } from "./limits.ts";
import { tryLock } from "./lock.ts";
import { runMmdebstrap } from "./mmdebstrap.ts";
import { DEBIAN_SUITE, IMAGE_FORMAT, imageRecipe, type Recipe, repoRoot } from "./recipe.ts";
import { type ImageMeta, imagePaths, isReady, META_FILE, pruneImages, removeTree } from "./store.ts";

export interface ImageProgress {
  /** What the build does now ("downloading packages"), or "waiting for another build". */
  phase: string;
  /** Since this call began. */
  elapsedMs: number;
}

export interface EnsureImageOptions {
  imagesDir: string;
  onProgress?: (progress: ImageProgress) => void;
}

export interface EnsuredImage {
  /** The image's root directory, for `bwrap --ro-bind <path> /` (COMPUTERD_ROOTFS). */
  path: string;
  hash: string;
  /** True when this call built it; false when it was there or another process built it. */
  built: boolean;
}

/** A build that ran and failed; `logTail` says why, `logFile` has the rest. */
export class ImageBuildError extends Error {
  readonly logTail: string[];
  readonly logFile: string;

  constructor(message: string, logTail: string[], logFile: string) {
    super(message);
    this.name = "ImageBuildError";
    this.logTail = logTail;
    this.logFile = logFile;
  }
}

/** `CUBICLE_IMAGES_DIR`, else `<CUBICLE_STATE_DIR or .wrangler/state>/images`, relative to the repo. */
export function defaultImagesDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CUBICLE_IMAGES_DIR) return resolve(repoRoot, env.CUBICLE_IMAGES_DIR);
  // `||`: an empty variable means unset, never the repo root (which resolve would make of "").
  return join(resolve(repoRoot, env.CUBICLE_STATE_DIR || ".wrangler/state"), "images");
}

/** Why this machine cannot build an image, or null when it can. */
export function cannotBuild(): string | null {
  if (process.getuid?.() !== 0) return "building the image needs root (mmdebstrap --mode=root)";
  const missing = ["mmdebstrap", "unshare", "setpriv"].filter(
    (tool) => !["/usr/bin", "/usr/sbin", "/bin", "/sbin"].some((dir) => existsSync(join(dir, tool))),
  );
  return missing.length ? `building the image needs ${missing.join(", ")} (apt-get install mmdebstrap)` : null;
}

/** Calls in flight in this process, by images directory: they share one build and its progress. */
const inFlight = new Map<string, { done: Promise<EnsuredImage>; listeners: Set<(p: ImageProgress) => void> }>();

export function ensureImage(options: EnsureImageOptions): Promise<EnsuredImage> {
  const imagesDir = resolve(options.imagesDir);
  let entry = inFlight.get(imagesDir);
  if (!entry) {
    const listeners = new Set<(p: ImageProgress) => void>();
    const done = ensure(imagesDir, (progress) => {
      for (const listener of listeners) listener(progress);
    }).finally(() => inFlight.delete(imagesDir));
    entry = { done, listeners };
    inFlight.set(imagesDir, entry);
  }
  if (options.onProgress) entry.listeners.add(options.onProgress);
  return entry.done;
}

async function ensure(imagesDir: string, report: (progress: ImageProgress) => void): Promise<EnsuredImage> {
  const recipe = imageRecipe();
  const { hash } = recipe;
  const path = imagePaths.image(imagesDir, hash);
  if (isReady(imagesDir, hash)) return { path, hash, built: false };
  const why = cannotBuild();
  if (why) throw new Error(why);
  await mkdir(imagesDir, { recursive: true });
  // The sandbox binds the image as an unprivileged user, who must be able to reach it.
  await chmod(imagesDir, 0o755);
  const startedMs = Date.now();
  const progress = phaseReporter(startedMs, report);
  try {
    for (;;) {
      const lock = await tryLock(imagePaths.lock(imagesDir));
      if ("heldBy" in lock) {
        progress(`waiting for another build (pid ${lock.heldBy})`);
        if (Date.now() - startedMs > imageLimits.buildMsMax) {
          throw new Error(`pid ${lock.heldBy} has been building the image for over ${imageLimits.buildMsMax} ms`);
        }
        await new Promise((r) => setTimeout(r, imageLimits.lockPollMs));
        if (isReady(imagesDir, hash)) return { path, hash, built: false };
        continue;
      }
      try {
        // Another process may have finished between our look and our lock.
        if (isReady(imagesDir, hash)) return { path, hash, built: false };
        await build(recipe, imagesDir, progress);
        progress("removing older images");
        await pruneImages(imagesDir, hash);
        return { path, hash, built: true };
      } finally {
        await lock.release();
      }
    }
  } finally {
    progress(null);
  }
}

async function build(recipe: Recipe, imagesDir: string, progress: (phase: string) => void) {
  // From here, not from the call: time spent waiting for another builder is not build time,
  // and buildMs is what the next Retry-After estimate starts from.
  const startedMs = Date.now();
  const { hash } = recipe;
  const target = imagePaths.building(imagesDir, hash);
  const aptCache = imagePaths.aptCache(imagesDir);
  const aptCacheNext = imagePaths.aptCacheNext(imagesDir);
  const logFile = imagePaths.log(imagesDir, hash);
  await removeTree(target);
  await removeTree(aptCacheNext);
  await mkdir(aptCache, { recursive: true });
  progress("starting mmdebstrap");
  const { code, tail } = await runMmdebstrap({
    recipe,
    target,
    aptCache,
    aptCacheNext,
    logFile,
    timeoutMs: imageLimits.buildMsMax,
    logTailLines: imageLimits.logTailLines,
    onPhase: progress,
  });
  // The archives this build downloaded become the next one's cache, also when a later step
  // failed: they are sound, and the retry then skips the download. Older versions go.
  if (existsSync(aptCacheNext)) {
    await removeTree(aptCache);
    await rename(aptCacheNext, aptCache);
  }
  if (code !== 0) {
    await removeTree(target);
    throw new ImageBuildError(`mmdebstrap exited with ${code}; see ${logFile}`, tail, logFile);
  }
  progress("measuring");
  const meta: ImageMeta = {
    hash,
    packages: recipe.packages,
    nodeVersion: recipe.node.nodeVersion,
    npmVersion: recipe.node.npmVersion,
    suite: DEBIAN_SUITE,
    format: IMAGE_FORMAT,
    builtAt: new Date().toISOString(),
    buildMs: Date.now() - startedMs,
    sizeBytes: await sizeBytes(target),
  };
  await writeFile(join(target, META_FILE), `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o644 });
  await chmod(target, 0o755);
  // The rename is the moment the image exists. Its target cannot exist under the lock,
  // but if a second builder slipped past a broken stale lock, its image stands and ours goes.
  await rename(target, imagePaths.image(imagesDir, hash)).catch(async (error) => {
    if (!isReady(imagesDir, hash)) throw error;
    await removeTree(target);
  });
}

async function sizeBytes(dir: string): Promise<number> {
  const { stdout } = await promisify(execFile)("du", ["-sb", dir]);
  return Number.parseInt(stdout, 10);
}

/**
 * Reports a phase when it starts, and again every progressEveryMs while it lasts, so a
 * long download still shows the build is alive. `null` stops the repeats.
 */
function phaseReporter(startedMs: number, report: (progress: ImageProgress) => void) {
  let current: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  const emit = () => current !== null && report({ phase: current, elapsedMs: Date.now() - startedMs });
  return (phase: string | null) => {
    if (phase === current) return;
    current = phase;
    clearInterval(timer);
    if (phase === null) return;
    emit();
    timer = setInterval(emit, imageLimits.progressEveryMs);
    timer.unref();
  };
}

if (import.meta.main) {
  const imagesDir = resolve(process.argv[2] ?? defaultImagesDir());
  const startedMs = Date.now();
  try {
    const image = await ensureImage({
      imagesDir,
      onProgress: ({ phase, elapsedMs }) => console.error(`image: ${phase} (${Math.round(elapsedMs / 1000)} s)`),
    });
    const seconds = ((Date.now() - startedMs) / 1000).toFixed(1);
    console.error(image.built ? `image: built ${image.hash} in ${seconds} s` : `image: ${image.hash} is ready`);
    console.log(image.path);
  } catch (error) {
    console.error(`image: ${(error as Error).message}`);
    if (error instanceof ImageBuildError) console.error(error.logTail.join("\n"));
    process.exit(1);
  }
}
