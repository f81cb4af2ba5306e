/**
 * `npm run pack:sdk [-- --out DIR]`: packs both SDKs as a user installs them, into
 * .build/sdk/ by default:
 * - `cubicle-sdk-<version>.tgz`, the TypeScript package (`npm pack`, whose prepack compiles
 *   it to dist/: sdk-gen/typescript/build.ts);
 * - `cubicle-<version>.tar.gz` and `cubicle-<version>-py3-none-any.whl`, the Python sdist and
 *   the wheel built from that sdist, as `python -m build` does, so a file missing from the
 *   sdist fails here and not on a user's machine.
 *
 * Nothing comes from PyPI (unreachable here and in CI): the wheel is built without
 * isolation, by the first Python that has setuptools and wheel (`$CUBICLE_PYTHON`, `python3`,
 * then Debian's /usr/bin/python3 with python3-setuptools and python3-wheel). The build runs on
 * a copy of the sources (sdk-gen/python/build_backend), so the repository stays clean.
 * Prints one line per artifact: its absolute path.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({ options: { out: { type: "string", default: join(root, ".build/sdk") } } });
const out = resolve(values.out);

/** The first interpreter that can build a wheel offline, or null. */
function pythonThatBuilds(): string | null {
  const candidates = [process.env.CUBICLE_PYTHON, "python3", "/usr/bin/python3"].filter((c): c is string => !!c);
  for (const python of candidates) {
    const probe = spawnSync(python, ["-c", "import setuptools, wheel"], { stdio: "ignore" });
    if (probe.status === 0) return python;
  }
  return null;
}

function packTypeScript(): string {
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  const printed = execFileSync(command, [...args, "pack", "--json", "--pack-destination", out], {
    cwd: join(root, "sdk-gen/typescript"),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [packed] = JSON.parse(printed) as { filename: string }[];
  if (!packed) throw new Error("npm pack printed no package");
  return join(out, packed.filename);
}

function packPython(): string[] {
  const python = pythonThatBuilds();
  if (!python) {
    throw new Error(
      "no Python with setuptools and wheel to build the Python SDK: apt-get install python3-setuptools python3-wheel (or set CUBICLE_PYTHON)",
    );
  }
  const sources = join(root, "sdk-gen/python");
  const sdistName = execFileSync(
    python,
    [
      "-c",
      "import sys; sys.path.insert(0, 'build_backend'); import cubicle_build; print(cubicle_build.build_sdist(sys.argv[1]))",
      out,
    ],
    { cwd: sources, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  )
    .trim()
    .split("\n")
    .at(-1) as string;
  const sdist = join(out, sdistName);
  execFileSync(
    python,
    ["-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-deps", "--no-index", "--wheel-dir", out, sdist],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const wheel = readdirSync(out).find((name) => name.endsWith("-py3-none-any.whl") && name.startsWith("cubicle-"));
  if (!wheel) throw new Error(`pip wheel left no wheel in ${out}`);
  return [sdist, join(out, wheel)];
}

if (import.meta.main) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const artifact of [packTypeScript(), ...packPython()]) console.log(artifact);
}
