/**
 * One mmdebstrap run: the root tree of a recipe, from Debian's packages, into a directory.
 *
 * It runs as `setpriv --pdeathsig KILL -- unshare --mount --propagation private --pid
 * --fork --mount-proc --kill-child -- mmdebstrap …`. Root mode mounts /proc, /sys and /dev
 * inside the new tree while maintainer scripts run; in a mount namespace of its own those
 * mounts vanish with the process however it ends, so a killed build never leaves the host's
 * /dev bound inside a directory that is about to be deleted. In a pid namespace of its own,
 * apt and dpkg die with mmdebstrap, and `--pdeathsig` and `--kill-child` end mmdebstrap when
 * its caller dies.
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { DEBIAN_SUITE, type Recipe, recipeFiles } from "./recipe.ts";

export interface MmdebstrapRun {
  recipe: Recipe;
  /** The directory to create; it must not exist. */
  target: string;
  /** Debian archives kept from the last build, copied in so unchanged packages are not downloaded again. */
  aptCache: string;
  /** An empty directory that receives this build's archives (the next build's cache). */
  aptCacheNext: string;
  logFile: string;
  timeoutMs: number;
  logTailLines: number;
  onPhase: (phase: string) => void;
}

/**
 * mmdebstrap's status lines (`I: …`) that start a phase worth telling a person about, and
 * what to call it. Other lines only go to the log.
 */
const PHASES: [prefix: string, phase: string][] = [
  ["I: running apt-get update", "reading package lists"],
  ["I: downloading packages", "downloading packages"],
  ["I: extracting archives", "unpacking the base system"],
  ["I: installing essential packages", "installing the base system"],
  ["I: installing remaining packages", "installing packages"],
  ["I: running --customize-hook", "adding node, npm and the box's files"],
  ["I: cleaning up", "cleaning up"],
];

export function mmdebstrapArgs(run: Pick<MmdebstrapRun, "recipe" | "target" | "aptCache" | "aptCacheNext">) {
  const { recipe, target, aptCache, aptCacheNext } = run;
  const { nodeBin, npmDir } = recipe.node;
  const q = shellQuote;
  return [
    "--variant=minbase",
    "--mode=root",
    "--format=directory",
    // Recommends stay out (mmdebstrap's default, as --no-install-recommends in the Dockerfile).
    // Package descriptions in other languages: nothing reads them, and they are a download.
    '--aptopt=Acquire::Languages "none"',
    `--dpkgopt=${recipeFiles.dpkgConfig}`,
    // No fsync per unpacked file: a build that dies is thrown away whole, never resumed.
    "--dpkgopt=force-unsafe-io",
    // Keeps the essential packages' archives until the end, so the cache gets them too.
    "--skip=essential/unlink",
    // mmdebstrap empties /run at the end, which would take the mount point /run/cubicle
    // (customize.sh) with it; customize.sh empties it itself.
    "--skip=cleanup/run",
    `--setup-hook=mkdir -p "$1/var/cache/apt/archives"`,
    `--setup-hook=sync-in ${aptCache} /var/cache/apt/archives/`,
    `--customize-hook=sync-out /var/cache/apt/archives ${aptCacheNext}`,
    // The Node and npm the project runs on, laid out as the official Node images have them.
    `--customize-hook=mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules"` +
      ` && install -m 0755 ${q(nodeBin)} "$1/usr/local/bin/node"` +
      ` && cp -R ${q(npmDir)} "$1/usr/local/lib/node_modules/npm"` +
      ` && chown -R 0:0 "$1/usr/local/lib/node_modules/npm"` +
      ` && ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"` +
      ` && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"`,
    `--customize-hook=sh ${q(recipeFiles.customize)} "$1"`,
    // Fails the build, rather than a tenant's first command, when the copied runtime cannot start.
    // npm's entry point starts with `#!/usr/bin/env node`, hence the PATH.
    `--customize-hook=chroot "$1" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent sh -c 'node -v && npm -v'`,
    `--include=${recipe.packages.join(",")}`,
    DEBIAN_SUITE,
    target,
  ];
}

/** Runs mmdebstrap; resolves with its exit code and the last lines it printed. */
export function runMmdebstrap(run: MmdebstrapRun): Promise<{ code: number | null; tail: string[] }> {
  const argv = [
    "--pdeathsig",
    "KILL",
    "--",
    "unshare",
    "--mount",
    "--propagation",
    "private",
    "--pid",
    "--fork",
    "--mount-proc",
    "--kill-child",
    "--",
    "mmdebstrap",
    ...mmdebstrapArgs(run),
  ];
  // A PATH of system directories only: mmdebstrap runs python3 once per archive it unpacks,
  // and a version manager's shim first on PATH (pyenv's here) made that step minutes long.
  const env = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8", HOME: "/root" };
  const child = spawn("setpriv", argv, { env, stdio: ["ignore", "pipe", "pipe"] });
  const log = createWriteStream(run.logFile);
  const tail: string[] = [];
  let pending = "";
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    // Progress bars redraw with \r; each redraw counts as a line.
    const lines = (pending + chunk.toString("utf8")).split(/\r|\n/);
    pending = lines.pop() ?? "";
    for (const line of lines.filter((l) => l.trim() !== "")) {
      tail.push(line);
      if (tail.length > run.logTailLines) tail.shift();
      const known = PHASES.find(([prefix]) => line.startsWith(prefix));
      if (known) run.onPhase(known[1]);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const timer = setTimeout(() => {
    tail.push(`the build took longer than ${run.timeoutMs} ms and was stopped`);
    child.kill("SIGKILL");
  }, run.timeoutMs);
  return new Promise((resolve) => {
    child.on("error", (error) => {
      tail.push(`could not start setpriv: ${error.message}`);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      log.end();
      resolve({ code, tail });
    });
  });
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
