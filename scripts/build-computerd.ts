/**
 * Bundles computerd (container/src/main.ts) into `.build/computerd/computerd.mjs`, one file
 * the container image (and the local supervisor) runs with Node 24, and compiles its FUSE
 * addon (container/src/fs/fuse/, a fork of fuse-native) beside it as `fuse.node`, the one
 * file the bundle cannot hold; it links the system's libfuse 3. @napi-rs/xattr (the native
 * mode's placeholders) stays external, a native addon resolved from node_modules next to the
 * bundle (the repo's when run from here, the image's in production). The banner gives the ESM
 * bundle a `require` for the CommonJS dependencies (ws, the fork's JavaScript) that call it.
 * Run by scripts/build.ts.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildFuseAddon } from "../container/src/fs/fuse/build.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const computerdBundle = join(root, ".build/computerd/computerd.mjs");

export async function buildComputerd(): Promise<void> {
  buildFuseAddon(join(dirname(computerdBundle), "fuse.node"));
  await build({
    entryPoints: [join(root, "container/src/main.ts")],
    outfile: computerdBundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    external: ["@napi-rs/xattr"],
    sourcemap: "inline",
    logLevel: "warning",
    banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildComputerd();
  console.log(`built ${computerdBundle}`);
}
