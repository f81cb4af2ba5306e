/**
 * `/bin` and `/usr/bin`: one file per command the shell knows, which is how just-bash finds a
 * command on `PATH` (and what `ls /usr/bin`, `which` and `command -v` see).
 *
 * `Bash` writes these files itself when it is made, two per command, about two hundred per
 * run; through an in-memory filesystem that was three quarters of a warm `echo hi` in the
 * guest (about 0.5 ms of 0.74 in Node, more in workerd). The files are the same for every run
 * of an isolate (the guest build fixes the commands, the isolate's network policy fixes
 * whether `curl` is one), so an isolate keeps one CommandFiles for all its runs, which each
 * run mounts as a CommandDir: the first run's writes fill it, and a later run's writes find
 * their file already there.
 *
 * A run sees it read-only, as a user who is not root sees the system's `/usr/bin`: creating,
 * changing or removing an entry fails with EACCES (EPERM for chmod and utimes, which only the
 * owner may do). Nothing a run does can reach the next run through it.
 */
import type { FsStat, IFileSystem } from "just-bash";
import { FixedFs } from "./fixedFs.ts";
import { ShellFsError } from "./fsErrors.ts";

const encoder = new TextEncoder();

/** The file of each command, by name: the script `Bash` writes for it. One per isolate. */
export class CommandFiles {
  readonly byName = new Map<string, string>();
  readonly madeAt = new Date();

  /** Takes the file `Bash` writes for a command; a name already here keeps its file. */
  add(name: string, content: string): void {
    if (!this.byName.has(name)) this.byName.set(name, content);
  }
}

/** The commands' directory as mounted at `shownAt`. */
export class CommandDir extends FixedFs implements IFileSystem {
  constructor(
    private readonly files: CommandFiles,
    shownAt: string,
  ) {
    super(shownAt, "EACCES");
  }

  private content(path: string, syscall: string): string {
    const content = this.files.byName.get(path.slice(1));
    if (content === undefined || path.indexOf("/", 1) !== -1) {
      throw new ShellFsError(path === "/" ? "EISDIR" : "ENOENT", syscall, this.shown(path));
    }
    return content;
  }

  protected statOf(path: string): FsStat {
    const isDirectory = path === "/";
    const size = isDirectory ? 0 : this.content(path, "stat").length;
    return { isFile: !isDirectory, isDirectory, isSymbolicLink: false, mode: 0o755, size, mtime: this.files.madeAt };
  }

  async readFile(path: string): Promise<string> {
    return this.content(path, "open");
  }
  async readFileBuffer(path: string): Promise<Uint8Array> {
    return encoder.encode(this.content(path, "open"));
  }
  async exists(path: string): Promise<boolean> {
    return path === "/" || (this.files.byName.has(path.slice(1)) && path.indexOf("/", 1) === -1);
  }
  async readdir(path: string): Promise<string[]> {
    if (path !== "/") this.content(path, "scandir");
    return [...this.files.byName.keys()].sort();
  }
  getAllPaths(): string[] {
    return [...this.files.byName.keys()].map((name) => `/${name}`);
  }
  async readlink(path: string): Promise<string> {
    this.statOf(path);
    throw new ShellFsError("EINVAL", "readlink", this.shown(path));
  }
  async writeFile(path: string): Promise<void> {
    this.refuse("open", path);
  }
  async appendFile(path: string): Promise<void> {
    this.refuse("open", path);
  }
  async utimes(path: string): Promise<void> {
    this.refuse("utime", path, "EPERM");
  }
}
