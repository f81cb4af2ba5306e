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

/** Nanoseconds since 1970 of a workspace stat's mtime: exact where the workspace gives them. */
function mtimeNsOf(stat: FsStat): bigint {
  return stat.mtimeNs !== undefined ? BigInt(stat.mtimeNs) : BigInt(Date.parse(stat.mtime)) * 1_000_000n;
}

export class Stats extends FileType {
  readonly dev = 0;
  readonly ino: number;
  readonly mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
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
    this.nlink = stat.nlink ?? 1;
    this.uid = stat.uid ?? 1000;
    this.gid = stat.gid ?? 1000;
    // The workspace keeps one time per file; it stands in for all four, as it does for git.
    // Node's mtimeMs carries the sub-millisecond part as a fraction; so does this one.
    this.mtimeMs = Number(mtimeNsOf(stat)) / 1e6;
    this.atimeMs = this.ctimeMs = this.birthtimeMs = this.mtimeMs;
    this.mtime = new Date(this.mtimeMs);
    this.atime = this.ctime = this.birthtime = this.mtime;
    const inode = Number(stat.identity);
    this.ino = Number.isSafeInteger(inode) ? inode : 0;
  }
}

/**
 * `stat(path, { bigint: true })`: every number a bigint, and the times to the nanosecond
 * (`mtimeNs`), as Node gives them. The workspace keeps the modification time exactly; the
 * other three read as it.
 */
export class BigIntStats extends FileType {
  readonly dev = 0n;
  readonly ino: bigint;
  readonly mode: bigint;
  readonly nlink: bigint;
  readonly uid: bigint;
  readonly gid: bigint;
  readonly rdev = 0n;
  readonly size: bigint;
  readonly blksize = 4096n;
  readonly blocks: bigint;
  readonly atimeMs: bigint;
  readonly mtimeMs: bigint;
  readonly ctimeMs: bigint;
  readonly birthtimeMs: bigint;
  readonly atimeNs: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly birthtimeNs: bigint;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;

  protected readonly fileType: FsStat["type"];

  constructor(stat: FsStat) {
    super();
    const plain = new Stats(stat);
    this.fileType = stat.type;
    this.ino = BigInt(plain.ino);
    this.mode = BigInt(plain.mode);
    this.nlink = BigInt(plain.nlink);
    this.uid = BigInt(plain.uid);
    this.gid = BigInt(plain.gid);
    this.size = BigInt(plain.size);
    this.blocks = BigInt(plain.blocks);
    this.mtimeNs = this.atimeNs = this.ctimeNs = this.birthtimeNs = mtimeNsOf(stat);
    // Node rounds the Ms fields of bigint stats down.
    const ms = this.mtimeNs / 1_000_000n - (this.mtimeNs < 0n && this.mtimeNs % 1_000_000n !== 0n ? 1n : 0n);
    this.mtimeMs = this.atimeMs = this.ctimeMs = this.birthtimeMs = ms;
    this.mtime = this.atime = this.ctime = this.birthtime = new Date(Number(ms));
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
