/**
 * Global setup of the vitest projects whose computerd runs commands (node, e2e): ensures the
 * box image once, in one directory every test process shares (`.wrangler/state/images` of
 * this checkout, or CUBICLE_IMAGES_DIR when set), and exports it to the test processes:
 * - CUBICLE_IMAGES_DIR, so every supervisor and `npm start` a test launches, whatever its
 *   temporary state directory, finds the image there instead of building its own;
 * - COMPUTERD_ROOTFS, the image itself, for tests that start computerd directly.
 *
 * A cold build takes minutes (docs/container-image.md); CI builds it in a step of its own
 * before `npm test`, so here it is found. A machine that cannot build (not root, no
 * mmdebstrap) gets a warning and no image, and only the tests that need one fail.
 */
import { join } from "node:path";
import { cannotBuild, ensureImage } from "./build.ts";
import { repoRoot } from "./recipe.ts";

export default async function setup(): Promise<void> {
  const imagesDir = process.env.CUBICLE_IMAGES_DIR || join(repoRoot, ".wrangler/state/images");
  const why = cannotBuild();
  const startedMs = Date.now();
  const image = await ensureImage({
    imagesDir,
    onProgress: ({ phase, elapsedMs }) => console.error(`box image: ${phase} (${Math.round(elapsedMs / 1000)} s)`),
  }).catch((error: Error) => {
    // Not buildable here and not built: say so once, and let the tests that need it fail.
    if (why) return console.error(`box image: none for these tests (${why})`);
    throw error;
  });
  if (!image) return;
  if (image.built) console.error(`box image: built in ${Math.round((Date.now() - startedMs) / 1000)} s`);
  process.env.CUBICLE_IMAGES_DIR = imagesDir;
  process.env.COMPUTERD_ROOTFS = image.path;
}
