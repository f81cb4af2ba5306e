/** Node's `fs.Stats` and `fs.Dirent` shapes over the workspace's stat values. */
import type { FsStat } from "../../contract.ts";

const typeBits = { file: 0o100000, dir: 0o040000, symlink: 0o120000 } as const;

/** The type predicates Node's Stats and Dirent share; a workspace holds no devices, FIFOs or sockets. */
abstract class FileType {
  protected abstract readonly fileType: FsStat["type"];
  isFile(): boolean {
    return this.fileType === "file";
  }
  isDirectory(): boolean {
    return this.fileType === "dir";
  }
  isSymbolicLink(): boolean {
    return this.fileType === "symlink";
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
}

export class Stats extends FileType {
  readonly dev = 0;
  readonly ino: number;
  readonly mode: number;
  readonly nlink = 1;
  readonly uid = 0;
  readonly gid = 0;
  readonly rdev = 0;
  readonly size: number;
  readonly blksize = 4096;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;

  protected readonly fileType: FsStat["type"];

  constructor(stat: FsStat) {
    super();
    this.fileType = stat.type;
    this.mode = (stat.mode & 0o7777) | typeBits[stat.type];
    this.size = stat.size;
    this.blocks = Math.ceil(stat.size / 512);
    // The workspace keeps one time per file; it stands in for all four, as it does for git.
    this.mtimeMs = Date.parse(stat.mtime);
    this.atimeMs = this.ctimeMs = this.birthtimeMs = this.mtimeMs;
    this.mtime = new Date(this.mtimeMs);
    this.atime = this.ctime = this.birthtime = this.mtime;
    const inode = Number(stat.identity);
    this.ino = Number.isSafeInteger(inode) ? inode : 0;
  }
}

export class Dirent extends FileType {
  constructor(
    readonly name: string,
    protected readonly fileType: FsStat["type"],
    /** The directory the entry is in, as module code named it (Node 20+ `parentPath`; `path` is its older name). */
    readonly parentPath: string,
  ) {
    super();
  }
  get path(): string {
    return this.parentPath;
  }
}

/** `fs.constants`, the subset that means something here (Linux values). */
export const constants = Object.freeze({
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
  COPYFILE_EXCL: 1,
  COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0,
  O_WRONLY: 1,
  O_RDWR: 2,
  O_CREAT: 64,
  O_EXCL: 128,
  O_TRUNC: 512,
  O_APPEND: 1024,
  S_IFMT: 0o170000,
  S_IFREG: 0o100000,
  S_IFDIR: 0o040000,
  S_IFLNK: 0o120000,
});
