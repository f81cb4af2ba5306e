/**
 * A fresh ext4 filesystem on a loop image in a temporary directory, mounted: what native
 * mode's fanotify helper may mark (container/native). For tests and benchmarks; needs root.
 * `dispose()` unmounts (lazily when something still holds the mount), detaches any loop
 * device still bound to the image and removes the directory; it never throws, so it can
 * run from afterAll whatever state a failed test left.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface LoopExt4 {
  /** The temporary directory: the image, the mount point, and room for test files on another filesystem. */
  dir: string;
  /** The mount root. */
  mnt: string;
  dispose(): Promise<void>;
}

export async function mountLoopExt4({ sizeMiB = 256, prefix = "cubicle-native-" } = {}): Promise<LoopExt4> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const image = join(dir, "image.ext4");
  const mnt = join(dir, "mnt");
  mkdirSync(mnt);
  const dispose = async () => {
    await run("umount", [mnt]).catch(() => run("umount", ["-l", mnt]).catch(() => {}));
    // `mount -o loop` sets autoclear, so this finds nothing unless an unmount was lazy or failed.
    const attached = await run("losetup", ["-j", image]).catch(() => ({ stdout: "" }));
    for (const line of attached.stdout.split("\n")) {
      const device = line.split(":")[0];
      if (device) await run("losetup", ["-d", device]).catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run("truncate", ["-s", `${sizeMiB}M`, image]);
    await run("mkfs.ext4", ["-q", "-F", image]);
    await run("mount", ["-o", "loop", image, mnt]);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { dir, mnt, dispose };
}
