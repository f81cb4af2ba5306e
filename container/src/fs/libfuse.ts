/**
 * fuse-native's addon links against `libfuse.so.2`, and ships that library inside the
 * package as `libfuse.so` with no rpath, so on a machine without the libfuse2 system
 * package the addon fails to load. The dynamic loader reads LD_LIBRARY_PATH only at
 * process start, so computerd re-executes itself (same pid, via execve) with a directory
 * that holds a `libfuse.so.2` link to the bundled copy. This runs before anything imports
 * fuse-native.
 */
import { existsSync } from "node:fs";
import { mkdir, rm, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const reexecMarker = "COMPUTERD_LIBFUSE_REEXEC";

export async function ensureLibfuse(stateDir: string | undefined): Promise<void> {
  const require = createRequire(import.meta.url);
  try {
    require("fuse-native");
    return;
  } catch (err) {
    if (!String((err as Error).message).includes("libfuse.so.2") || process.env[reexecMarker]) throw err;
  }
  const packageDir = dirname(require.resolve("fuse-native/package.json"));
  const bundled = [
    join(packageDir, "build/Release/libfuse.so"),
    join(packageDir, "prebuilds/linux-x64/libfuse.so"),
  ].find((p) => existsSync(p));
  if (!bundled || !stateDir) throw new Error("libfuse.so.2 is missing and fuse-native bundles none");
  const libDir = join(stateDir, "lib");
  await mkdir(libDir, { recursive: true });
  await rm(join(libDir, "libfuse.so.2"), { force: true });
  await symlink(bundled, join(libDir, "libfuse.so.2"));
  const env: Record<string, string | undefined> = { ...process.env, [reexecMarker]: "1" };
  env.LD_LIBRARY_PATH = env.LD_LIBRARY_PATH ? `${libDir}:${env.LD_LIBRARY_PATH}` : libDir;
  if (!process.execve) throw new Error("libfuse.so.2 is missing and this Node cannot re-execute itself");
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    env as NodeJS.ProcessEnv,
  );
}
