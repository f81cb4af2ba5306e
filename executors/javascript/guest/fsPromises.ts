/**
 * `node:fs/promises` for module code, over the run's WorkspaceFsApi capability.
 *
 * Paths are Node's: relative to `process.cwd()`, or absolute; `/workspace/...` is the
 * workspace, and nothing else exists (ENOENT) except the devices `/dev/stdin` (the run's
 * stdin), `/dev/stdout`, `/dev/stderr` and `/dev/null`. Failures reject with Node's errors
 * (nodeErrors.ts). Symlink targets under /workspace are stored as workspace paths and shown
 * back under /workspace, as the shell does. The capability is already confined to the
 * run's credential (path prefix) by the workspace object; nothing here widens it.
 *
 * Not offered: file handles (`open`, `opendir`, `watch`). Hard links (`link`), owners
 * (`chown`, `lchown`, in the box's ids) and modification times (`utimes`, `lutimes`; the
 * access time is not kept, so it is ignored) are the workspace's own; `stat(path, { bigint:
 * true })` gives `mtimeNs` exactly. `realpath` checks existence and normalises but does not
 * follow symlinks.
 */
import { Buffer } from "node:buffer";
import type { FsError, FsStat, OutputStream, WorkspaceFsApi } from "../../contract.ts";
import { fromFailure, nodeFsError } from "./nodeErrors.ts";
import { absolutePath, type PathLike, pathString, shownPath, workspacePath } from "./paths.ts";
import { BigIntStats, constants, Dirent, Stats } from "./stats.ts";

export interface FsHost {
  api: WorkspaceFsApi;
  cwd(): string;
  stdin: Uint8Array;
  write(stream: OutputStream, bytes: Uint8Array): void;
}

type Options = { encoding?: BufferEncoding | null; flag?: string; mode?: number } | BufferEncoding | null | undefined;
type Data = string | ArrayBufferView | ArrayBuffer;
/** A time as Node's utimes takes it: seconds since 1970 (a fraction allowed), a numeric string, or a Date. */
type Time = number | string | Date;

/** Nanoseconds since 1970 (a decimal string) of a Node time; NaN and Infinity mean now, as in Node. */
function nsOfTime(time: Time): string | null {
  if (time instanceof Date) {
    const ms = time.getTime();
    return Number.isFinite(ms) ? String(BigInt(ms) * 1_000_000n) : null;
  }
  const seconds = typeof time === "string" ? Number(time) : time;
  if (!Number.isFinite(seconds)) return null;
  const whole = Math.floor(seconds);
  return String(BigInt(whole) * 1_000_000_000n + BigInt(Math.round((seconds - whole) * 1e9)));
}

const devices: Record<string, "stdin" | OutputStream | "null"> = {
  "/dev/stdin": "stdin",
  "/dev/stdout": "stdout",
  "/dev/stderr": "stderr",
  "/dev/null": "null",
};

function encodingOf(options: Options): BufferEncoding | null {
  if (typeof options === "string") return options;
  return options?.encoding ?? null;
}

function bytesOf(data: Data, options: Options): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, encodingOf(options) ?? "utf8");
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView`);
}

export function createFsPromises(host: FsHost) {
  /** The workspace path for a Node path; outside /workspace, the error `syscall` would meet. */
  const locate = (path: PathLike, syscall: string): { shown: string; at: string } => {
    const shown = pathString(path);
    const at = workspacePath(absolutePath(host.cwd(), shown));
    if (at === null) throw nodeFsError("ENOENT", syscall, shown);
    return { shown, at };
  };
  const device = (path: PathLike) => devices[absolutePath(host.cwd(), pathString(path))];
  const ok = <T extends { ok: true }>(result: T | FsError, syscall: string, shown: string, dest?: string): T => {
    if (!result.ok) throw fromFailure(result, syscall, shown, dest);
    return result;
  };
  type StatOptions = { bigint?: boolean } | undefined;
  const statsOf = (stat: FsStat, options: StatOptions) => (options?.bigint ? new BigIntStats(stat) : new Stats(stat));
  const lstat = async (path: PathLike, options?: StatOptions) => {
    const { shown, at } = locate(path, "lstat");
    return statsOf(ok(await host.api.lstat(at), "lstat", shown).stat, options);
  };
  const stat = async (path: PathLike, options?: StatOptions) => {
    const { shown, at } = locate(path, "stat");
    return statsOf(ok(await host.api.stat(at), "stat", shown).stat, options);
  };
  const exists = async (at: string) => (await host.api.lstat(at)).ok;

  async function readFile(path: PathLike, options?: Options): Promise<Buffer | string> {
    const dev = device(path);
    let bytes: Uint8Array;
    if (dev === "stdin") bytes = host.stdin;
    else if (dev !== undefined) bytes = new Uint8Array(0);
    else {
      const { shown, at } = locate(path, "open");
      bytes = ok(await host.api.readFile(at), "open", shown).bytes;
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const encoding = encodingOf(options);
    return encoding ? buffer.toString(encoding) : buffer;
  }

  async function writeFile(path: PathLike, data: Data, options?: Options): Promise<void> {
    const flag = (typeof options === "object" && options?.flag) || "w";
    const dev = device(path);
    if (dev === "stdout" || dev === "stderr") return host.write(dev, bytesOf(data, options));
    if (dev !== undefined) return;
    const { shown, at } = locate(path, "open");
    if (flag.includes("x") && (await exists(at))) throw nodeFsError("EEXIST", "open", shown);
    ok(await host.api.writeFile(at, bytesOf(data, options), { append: flag.startsWith("a") }), "open", shown);
  }

  async function appendFile(path: PathLike, data: Data, options?: Options): Promise<void> {
    const flag = (typeof options === "object" && options?.flag) || "a";
    await writeFile(
      path,
      data,
      typeof options === "object" && options ? { ...options, flag } : { encoding: encodingOf(options), flag },
    );
  }

  async function readdir(
    path: PathLike,
    options?: { withFileTypes?: boolean; recursive?: boolean; encoding?: BufferEncoding } | BufferEncoding,
  ): Promise<string[] | Dirent[]> {
    const { shown, at } = locate(path, "scandir");
    const withTypes = typeof options === "object" && options?.withFileTypes === true;
    const recursive = typeof options === "object" && options?.recursive === true;
    const found: { name: string; parent: string; type: FsStat["type"] }[] = [];
    const walk = async (dir: string, shownDir: string, prefix: string): Promise<void> => {
      const { entries } = ok(await host.api.readdir(dir), "scandir", shownDir);
      for (const entry of entries) {
        found.push({ name: `${prefix}${entry.name}`, parent: shownDir, type: entry.type });
        if (recursive && entry.type === "dir") {
          const child = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
          await walk(child, `${shownDir}/${entry.name}`, `${prefix}${entry.name}/`);
        }
      }
    };
    await walk(at, shown, "");
    if (!withTypes) return found.map((entry) => entry.name);
    return found.map((entry) => new Dirent(entry.name.split("/").at(-1) ?? entry.name, entry.type, entry.parent));
  }

  async function mkdir(path: PathLike, options?: { recursive?: boolean; mode?: number } | number) {
    const { shown, at } = locate(path, "mkdir");
    const recursive = typeof options === "object" && options?.recursive === true;
    // Node answers a recursive mkdir with the first directory it created, or undefined.
    let first: string | undefined;
    if (recursive) {
      for (let dir = at; dir !== "/" && !(await exists(dir)); dir = dir.slice(0, dir.lastIndexOf("/")) || "/") {
        first = shownPath(dir);
      }
    }
    ok(await host.api.mkdir(at, { recursive }), "mkdir", shown);
    return recursive ? first : undefined;
  }

  async function rm(path: PathLike, options?: { recursive?: boolean; force?: boolean }) {
    const { shown, at } = locate(path, "rm");
    const recursive = options?.recursive === true;
    const force = options?.force === true;
    ok(await host.api.rm(at, { recursive, force }), "rm", shown);
  }

  async function rmdir(path: PathLike, options?: { recursive?: boolean }) {
    const { shown, at } = locate(path, "rmdir");
    const info = await lstat(path).catch((error: { code?: string }) => {
      throw nodeFsError(error.code ?? "ENOENT", "rmdir", shown);
    });
    if (!info.isDirectory()) throw nodeFsError("ENOTDIR", "rmdir", shown);
    if (!options?.recursive && ok(await host.api.readdir(at), "rmdir", shown).entries.length > 0) {
      throw nodeFsError("ENOTEMPTY", "rmdir", shown);
    }
    ok(await host.api.rm(at, { recursive: true, force: false }), "rmdir", shown);
  }

  async function unlink(path: PathLike) {
    const { shown, at } = locate(path, "unlink");
    const info = ok(await host.api.lstat(at), "unlink", shown).stat;
    if (info.type === "dir") throw nodeFsError("EISDIR", "unlink", shown);
    ok(await host.api.rm(at, { recursive: false, force: false }), "unlink", shown);
  }

  async function rename(from: PathLike, to: PathLike) {
    const source = locate(from, "rename");
    const target = locate(to, "rename");
    ok(await host.api.mv(source.at, target.at), "rename", source.shown, target.shown);
  }

  async function copyFile(from: PathLike, to: PathLike, mode = 0) {
    const source = locate(from, "copyfile");
    const target = locate(to, "copyfile");
    if (mode & constants.COPYFILE_EXCL && (await exists(target.at))) {
      throw nodeFsError("EEXIST", "copyfile", source.shown, target.shown);
    }
    ok(await host.api.cp(source.at, target.at, { recursive: false }), "copyfile", source.shown, target.shown);
  }

  async function cp(from: PathLike, to: PathLike, options?: { recursive?: boolean }) {
    const source = locate(from, "cp");
    const target = locate(to, "cp");
    ok(
      await host.api.cp(source.at, target.at, { recursive: options?.recursive === true }),
      "cp",
      source.shown,
      target.shown,
    );
  }

  async function symlink(target: PathLike, path: PathLike) {
    const { shown, at } = locate(path, "symlink");
    let stored = pathString(target);
    if (stored.startsWith("/")) {
      const inside = workspacePath(absolutePath("/", stored));
      // The workspace resolves absolute targets from its own root; nothing outside /workspace exists.
      if (inside === null) throw nodeFsError("EXDEV", "symlink", stored, shown);
      stored = inside;
    }
    ok(await host.api.symlink(stored, at), "symlink", stored, shown);
  }

  async function readlink(path: PathLike, options?: Options): Promise<string | Buffer> {
    const { shown, at } = locate(path, "readlink");
    const { target } = ok(await host.api.readlink(at), "readlink", shown);
    const visible = target.startsWith("/") ? shownPath(target) : target;
    return (encodingOf(options) as string | null) === "buffer" ? Buffer.from(visible) : visible;
  }

  async function chmod(path: PathLike, mode: number | string) {
    const { shown, at } = locate(path, "chmod");
    ok(await host.api.chmod(at, typeof mode === "string" ? Number.parseInt(mode, 8) : mode), "chmod", shown);
  }

  async function link(existingPath: PathLike, newPath: PathLike) {
    const existing = locate(existingPath, "link");
    const { shown, at } = locate(newPath, "link");
    ok(await host.api.link(existing.at, at), "link", existing.shown, shown);
  }

  const ownerCall = (syscall: string, follow: boolean) => async (path: PathLike, uid: number, gid: number) => {
    const { shown, at } = locate(path, syscall);
    // -1 keeps an id, as chown(2) does.
    const owner = { ...(uid === -1 ? {} : { uid }), ...(gid === -1 ? {} : { gid }) };
    ok(await host.api.chown(at, owner, { follow }), syscall, shown);
  };
  const chown = ownerCall("chown", true);
  const lchown = ownerCall("lchown", false);

  const timesCall = (syscall: string, follow: boolean) => async (path: PathLike, _atime: Time, mtime: Time) => {
    const { shown, at } = locate(path, syscall);
    ok(await host.api.utimes(at, nsOfTime(mtime), { follow }), syscall, shown);
  };
  const utimes = timesCall("utime", true);
  const lutimes = timesCall("lutime", false);

  async function truncate(path: PathLike, length = 0) {
    const { shown, at } = locate(path, "open");
    ok(await host.api.truncate(at, length), "open", shown);
  }

  async function access(path: PathLike, _mode?: number) {
    if (device(path) !== undefined) return;
    const { shown, at } = locate(path, "access");
    ok(await host.api.stat(at), "access", shown);
  }

  async function realpath(path: PathLike): Promise<string> {
    const { shown, at } = locate(path, "realpath");
    ok(await host.api.stat(at), "realpath", shown);
    return shownPath(at);
  }

  return {
    readFile,
    writeFile,
    appendFile,
    readdir,
    stat,
    lstat,
    mkdir,
    rm,
    rmdir,
    unlink,
    rename,
    copyFile,
    cp,
    symlink,
    readlink,
    chmod,
    chown,
    lchown,
    link,
    utimes,
    lutimes,
    truncate,
    access,
    realpath,
    constants,
  };
}

export type FsPromises = ReturnType<typeof createFsPromises>;
