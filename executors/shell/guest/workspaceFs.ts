/**
 * The workspace as a just-bash filesystem: every IFileSystem method becomes calls on the
 * workspace's WorkspaceFsApi capability, whose failures (values with POSIX codes) are
 * thrown the way just-bash's commands expect (see fsErrors.ts).
 *
 * Paths arrive relative to the mount point (MountableFs strips `/workspace`), which is
 * exactly the workspace's own path space: `/workspace/src/a.ts` is `/src/a.ts`. Messages
 * name the full path, as the shell sees it. Absolute symlink targets are translated the
 * same way both ways, because the workspace resolves them from its own root.
 *
 * Hard links (`ln`) are the workspace's own; utimes sets the modification time (there is no
 * access time to set: the workspace keeps none). `stat` is the shell's own command
 * (statCommand.ts), which shows what just-bash's stat shape has no room for.
 */
import type { CpOptions, FsStat, IFileSystem, MkdirOptions, RmOptions } from "just-bash";
import type { FsError, WorkspaceFsApi, FsStat as WorkspaceStat } from "../../contract.ts";
import { shellLimits } from "../limits.ts";
import { bytesContent, contentBytes } from "./bytes.ts";
import { fsError, ShellFsError } from "./fsErrors.ts";

export type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem["readdirWithFileTypes"]>>>[number];

type Ok<T> = { ok: true } & T;

function toStat(stat: WorkspaceStat): FsStat {
  return {
    isFile: stat.type === "file",
    isDirectory: stat.type === "dir",
    isSymbolicLink: stat.type === "symlink",
    mode: stat.mode & 0o7777,
    size: stat.size,
    mtime: new Date(stat.mtime),
    ...(stat.identity !== undefined ? { identity: stat.identity } : {}),
  };
}

function segments(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "" && segment !== ".");
}

export class WorkspaceFs implements IFileSystem {
  /**
   * Paths this run has seen to be real directories (lstat), so realpath need not ask
   * again for every prefix: find and cp -r ask for the realpath of every directory they
   * enter. Forgotten on any change that could turn a directory into something else.
   */
  private readonly knownDirs = new Set<string>(["/"]);

  constructor(
    private readonly api: WorkspaceFsApi,
    private readonly mountPoint = "/workspace",
  ) {}

  private shown(path: string): string {
    return path === "/" ? this.mountPoint : `${this.mountPoint}${path}`;
  }

  private unwrap<T>(result: Ok<T> | FsError, syscall: string, path: string): Ok<T> {
    if (!result.ok) throw fsError(result, syscall, this.shown(path));
    return result;
  }

  private changed(): void {
    this.knownDirs.clear();
    this.knownDirs.add("/");
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    return this.unwrap(await this.api.readFile(path), "open", path).bytes;
  }

  async readFile(path: string, options?: unknown): Promise<string> {
    return bytesContent(await this.readFileBuffer(path), options);
  }

  async writeFile(path: string, content: string | Uint8Array, options?: unknown): Promise<void> {
    this.unwrap(await this.api.writeFile(path, contentBytes(content, options)), "open", path);
  }

  async appendFile(path: string, content: string | Uint8Array, options?: unknown): Promise<void> {
    this.unwrap(await this.api.writeFile(path, contentBytes(content, options), { append: true }), "open", path);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.api.stat(path)).ok;
  }

  async stat(path: string): Promise<FsStat> {
    return toStat(this.unwrap(await this.api.stat(path), "stat", path).stat);
  }

  async lstat(path: string): Promise<FsStat> {
    const stat = toStat(this.unwrap(await this.api.lstat(path), "lstat", path).stat);
    if (stat.isDirectory) this.knownDirs.add(path);
    return stat;
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    this.unwrap(await this.api.mkdir(path, { recursive: options?.recursive ?? false }), "mkdir", path);
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const { entries } = this.unwrap(await this.api.readdir(path), "scandir", path);
    return entries.map(({ name, type }) => ({
      name,
      isFile: type === "file",
      isDirectory: type === "dir",
      isSymbolicLink: type === "symlink",
    }));
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((entry) => entry.name);
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    this.changed();
    const result = await this.api.rm(path, { recursive: options?.recursive ?? false, force: options?.force ?? false });
    this.unwrap(result, "rm", path);
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    this.unwrap(await this.api.cp(src, dest, { recursive: options?.recursive ?? false }), "cp", src);
  }

  async mv(src: string, dest: string): Promise<void> {
    this.changed();
    this.unwrap(await this.api.mv(src, dest), "rename", src);
  }

  resolvePath(base: string, path: string): string {
    const parts = path.startsWith("/") ? [] : segments(base);
    for (const segment of segments(path)) {
      if (segment === "..") parts.pop();
      else parts.push(segment);
    }
    return `/${parts.join("/")}`;
  }

  /** Globs and `find` walk with readdir instead; an empty list keeps them working. */
  getAllPaths(): string[] {
    return [];
  }

  async chmod(path: string, mode: number): Promise<void> {
    this.unwrap(await this.api.chmod(path, mode), "chmod", path);
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    let stored = target;
    if (target.startsWith("/")) {
      // The workspace resolves absolute targets from its root, which is /workspace here;
      // a target elsewhere (scratch space) would not exist in the next run anyway.
      if (target !== this.mountPoint && !target.startsWith(`${this.mountPoint}/`)) {
        throw new ShellFsError("EXDEV", "symlink", this.shown(linkPath));
      }
      stored = target.slice(this.mountPoint.length) || "/";
    }
    this.changed();
    this.unwrap(await this.api.symlink(stored, linkPath), "symlink", linkPath);
  }

  async link(existingPath: string, newPath: string): Promise<void> {
    this.unwrap(await this.api.link(existingPath, newPath), "link", newPath);
  }

  async readlink(path: string): Promise<string> {
    const { target } = this.unwrap(await this.api.readlink(path), "readlink", path);
    return target.startsWith("/") ? this.shown(target) : target;
  }

  /** Resolves symlinks one segment at a time, asking only about segments not yet known to be directories. */
  async realpath(path: string): Promise<string> {
    const pending = segments(path);
    const resolved: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const segment = pending.shift() as string;
      if (segment === "..") {
        resolved.pop();
        continue;
      }
      const candidate = `/${[...resolved, segment].join("/")}`;
      if (this.knownDirs.has(candidate)) {
        resolved.push(segment);
        continue;
      }
      const stat = this.unwrap(await this.api.lstat(candidate), "realpath", path).stat;
      if (stat.type !== "symlink") {
        if (stat.type === "dir") this.knownDirs.add(candidate);
        resolved.push(segment);
        continue;
      }
      if (++hops > shellLimits.symlinkDepthMax) throw new ShellFsError("ELOOP", "realpath", this.shown(path));
      const { target } = this.unwrap(await this.api.readlink(candidate), "realpath", path);
      if (target.startsWith("/")) resolved.length = 0;
      pending.unshift(...segments(target));
    }
    return `/${resolved.join("/")}`;
  }

  async utimes(path: string, _atime: Date, mtime: Date): Promise<void> {
    const ms = mtime.getTime();
    const mtimeNs = Number.isFinite(ms) ? String(BigInt(ms) * 1_000_000n) : null;
    this.unwrap(await this.api.utimes(path, mtimeNs), "utime", path);
  }
}
