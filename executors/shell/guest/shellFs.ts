/**
 * The filesystem a run's shell sees: just-bash's MountableFs with
 * - `/workspace`: the workspace (WorkspaceFs over the capability), the only thing that persists;
 * - `/dev/.cubicle`: the output device (outputDevice.ts);
 * - `/bin` and `/usr/bin`: the commands' files, read-only, kept by the isolate (commandDir.ts);
 * - everything else (`/tmp`, `/home/user`, `/dev/null`, `/proc`): a fresh in-memory
 *   filesystem per run, scratch space that is gone when the run ends. It also holds
 *   `/dev/urandom` (fresh random bytes) and `/dev/zero`, each `deviceBytes` long, made when
 *   first read.
 *
 * Two additions to MountableFs: the synchronous `mkdirSync`/`writeFileSync` that `Bash`
 * looks for to lay out `/bin`, `/dev` and `/proc` (the commands' files go to the isolate's
 * CommandFiles, the rest to the scratch filesystem), and
 * `readdirWithFileTypes`, which MountableFs does not pass on, so that `find`, `grep -r`,
 * `ls` and globs list a workspace directory in one call instead of one stat per entry.
 */
import { type IFileSystem, InMemoryFs, MountableFs } from "just-bash";
import { shellLimits } from "../limits.ts";
import { CommandDir, CommandFiles } from "./commandDir.ts";
import type { DirentEntry } from "./workspaceFs.ts";

export const workspaceMountPoint = "/workspace";

const deviceSizes = { "/dev/urandom": shellLimits.deviceBytes, "/dev/zero": shellLimits.deviceBytes } as const;

/** The device files of a run, made when first read: fresh random bytes, and zeros. */
const devices: Record<keyof typeof deviceSizes, () => Uint8Array> = {
  "/dev/urandom": () => crypto.getRandomValues(new Uint8Array(deviceSizes["/dev/urandom"])),
  "/dev/zero": () => new Uint8Array(deviceSizes["/dev/zero"]),
};
export const homeDir = "/home/user";

/** Where `Bash` puts a file per command (commandDir.ts). */
const commandDirs = ["/bin", "/usr/bin"];
const commandFile = /^\/(?:usr\/)?bin\/([^/]+)$/;
/** The commands' files, kept by the isolate for all its runs (commandDir.ts). */
const commands = new CommandFiles();

export interface ShellFsMounts {
  workspace: IFileSystem;
  device: { path: string; filesystem: IFileSystem };
}

export class ShellFs extends MountableFs {
  private readonly scratch: InMemoryFs;
  private readonly workspace: IFileSystem;

  constructor(mounts: ShellFsMounts) {
    const scratch = new InMemoryFs(undefined, { maxTotalBytes: shellLimits.scratchBytesMax });
    scratch.mkdirSync(homeDir, { recursive: true });
    scratch.mkdirSync("/tmp", { recursive: true });
    scratch.mkdirSync("/dev", { recursive: true });
    for (const [path, content] of Object.entries(devices)) scratch.writeFileLazy(path, content);
    super({
      base: scratch,
      mounts: [
        { mountPoint: workspaceMountPoint, filesystem: mounts.workspace },
        { mountPoint: mounts.device.path, filesystem: mounts.device.filesystem },
        ...commandDirs.map((mountPoint) => ({ mountPoint, filesystem: new CommandDir(commands, mountPoint) })),
      ],
    });
    this.scratch = scratch;
    this.workspace = mounts.workspace;
  }

  mkdirSync(path: string, options?: { recursive?: boolean }): void {
    this.scratch.mkdirSync(path, options);
  }

  writeFileSync(path: string, content: string | Uint8Array): void {
    // Bash lays out an empty /dev/zero of its own; ours stays.
    if (path in deviceSizes) return;
    const command = typeof content === "string" ? commandFile.exec(path) : null;
    if (command) commands.add(command[1] as string, content as string);
    else this.scratch.writeFileSync(path, content);
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const normalized = this.resolvePath("/", path);
    const inWorkspace = normalized === workspaceMountPoint || normalized.startsWith(`${workspaceMountPoint}/`);
    if (inWorkspace && this.workspace.readdirWithFileTypes) {
      return this.workspace.readdirWithFileTypes(normalized.slice(workspaceMountPoint.length) || "/");
    }
    // Elsewhere everything is in memory (or a mount point), so a stat per entry costs nothing.
    const names = await this.readdir(normalized);
    return Promise.all(
      names.map(async (name) => {
        const stat = await this.lstat(normalized === "/" ? `/${name}` : `${normalized}/${name}`);
        return { name, isFile: stat.isFile, isDirectory: stat.isDirectory, isSymbolicLink: stat.isSymbolicLink };
      }),
    );
  }
}
