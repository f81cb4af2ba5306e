/**
 * What the guest's small mounted filesystems share (the output device, the commands'
 * directories): each is one fixed directory of files, so every call that would make, move,
 * remove or relink an entry is refused with one error code, and paths resolve without
 * symlinks.
 */
import type { FsStat, IFileSystem } from "just-bash";
import { ShellFsError } from "./fsErrors.ts";
import type { DirentEntry } from "./workspaceFs.ts";

export abstract class FixedFs implements Partial<IFileSystem> {
  /**
   * @param shownAt where the filesystem is mounted, for the paths in error messages
   * @param refusal the code a refused change fails with
   */
  constructor(
    protected readonly shownAt: string,
    private readonly refusal: "EPERM" | "EACCES",
  ) {}

  /** The directory (`/`) or one of its files; throws ENOENT for anything else. */
  protected abstract statOf(path: string): FsStat;
  abstract readdir(path: string): Promise<string[]>;

  async stat(path: string): Promise<FsStat> {
    return this.statOf(path);
  }
  async lstat(path: string): Promise<FsStat> {
    return this.statOf(path);
  }
  async realpath(path: string): Promise<string> {
    this.statOf(path);
    return path;
  }
  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    return (await this.readdir(path)).map((name) => ({
      name,
      isFile: true,
      isDirectory: false,
      isSymbolicLink: false,
    }));
  }

  protected shown(path: string): string {
    return path === "/" ? this.shownAt : `${this.shownAt}${path}`;
  }

  protected refuse(syscall: string, path: string, code: string = this.refusal): never {
    throw new ShellFsError(code, syscall, this.shown(path));
  }

  resolvePath(base: string, path: string): string {
    return path.startsWith("/") ? path : `${base === "/" ? "" : base}/${path}`;
  }
  async mkdir(path: string): Promise<void> {
    this.refuse("mkdir", path);
  }
  async rm(path: string): Promise<void> {
    this.refuse("rm", path);
  }
  async cp(_src: string, dest: string): Promise<void> {
    this.refuse("cp", dest);
  }
  async mv(src: string): Promise<void> {
    this.refuse("rename", src);
  }
  /** Only the owner may change a mode; nobody in the shell owns these. */
  async chmod(path: string): Promise<void> {
    this.refuse("chmod", path, "EPERM");
  }
  async symlink(_target: string, linkPath: string): Promise<void> {
    this.refuse("symlink", linkPath);
  }
  async link(_existingPath: string, newPath: string): Promise<void> {
    this.refuse("link", newPath);
  }
}
