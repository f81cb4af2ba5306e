/**
 * The file capability handed to an executor's sandbox for one run: an RpcTarget over this
 * workspace's filesystem and nothing else (passed as a method argument, so the sandbox
 * can call back into the object without any binding of its own). Results are values with
 * POSIX codes, as the contract's WorkspaceFsApi says.
 */
import { RpcTarget } from "cloudflare:workers";
import type { FsError, FsStat, WorkspaceFsApi } from "../../../executors/contract.ts";
import type { FsFailure } from "../vfs/errors.ts";
import type { Stat } from "../vfs/store.ts";
import type { Vfs } from "../vfs/Vfs.ts";

/** Largest file a sandbox reads whole (just-bash reads files whole). */
const READ_BYTES_MAX = 64 * 1024 * 1024;

const error = (failure: FsFailure): FsError => ({ ok: false, code: failure.code, message: failure.message });
const view = (stat: Stat): FsStat => ({ type: stat.type, size: stat.size, mode: stat.mode, mtime: stat.mtime });
const done = <T extends { ok: boolean }>(result: T) =>
  result.ok ? { ok: true as const } : error(result as unknown as FsFailure);

export class WorkspaceFsTarget extends RpcTarget implements WorkspaceFsApi {
  constructor(
    private readonly vfs: Vfs,
    /** Called after every change, so the gateway's counters mirror can be refreshed once the run ends. */
    private readonly onChange: () => void = () => {},
  ) {
    super();
  }

  async readFile(path: string) {
    // The sandbox holds what it reads in memory; past this, the container executor streams.
    const stat = this.vfs.stat(path);
    if (stat.ok && stat.stat.size > READ_BYTES_MAX) {
      return {
        ok: false as const,
        code: "EFBIG",
        message: `${path} is larger than ${READ_BYTES_MAX} bytes; use the container executor`,
      };
    }
    const result = await this.vfs.readBytes(path);
    return result.ok ? { ok: true as const, bytes: result.bytes } : error(result);
  }

  async writeFile(path: string, bytes: Uint8Array, options: { append?: boolean } = {}) {
    this.onChange();
    return done(await this.vfs.write(path, bytes, { mode: options.append ? "append" : "overwrite", parents: false }));
  }

  async stat(path: string) {
    const result = this.vfs.stat(path);
    return result.ok ? { ok: true as const, stat: view(result.stat) } : error(result);
  }

  async lstat(path: string) {
    const result = this.vfs.lstat(path);
    return result.ok ? { ok: true as const, stat: view(result.stat) } : error(result);
  }

  async readdir(path: string) {
    const entries: { name: string; type: FsStat["type"] }[] = [];
    let cursor: string | undefined;
    do {
      const page = this.vfs.list(path, { limit: 10_000, cursor });
      if (!page.ok) return error(page);
      entries.push(...page.entries.map((e) => ({ name: e.name, type: e.type })));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { ok: true as const, entries };
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}) {
    this.onChange();
    return done(await this.vfs.mkdir(path, { recursive: options.recursive ?? false }));
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}) {
    this.onChange();
    const result = await this.vfs.remove(path, { recursive: options.recursive ?? false });
    if (!result.ok && result.code === "ENOENT" && options.force) return { ok: true as const };
    return done(result);
  }

  async mv(from: string, to: string) {
    this.onChange();
    return done(await this.vfs.move(from, to));
  }

  async cp(from: string, to: string, options: { recursive?: boolean } = {}) {
    this.onChange();
    const source = this.vfs.stat(from);
    if (source.ok && source.stat.type === "dir" && !options.recursive) {
      return { ok: false as const, code: "EISDIR", message: `${from} is a directory (not copied)` };
    }
    return done(await this.vfs.copy(from, to, { overwrite: true }));
  }

  async symlink(target: string, path: string) {
    this.onChange();
    return done(await this.vfs.symlink(target, path));
  }

  async readlink(path: string) {
    const result = this.vfs.readlink(path);
    return result.ok ? { ok: true as const, target: result.target } : error(result);
  }

  async chmod(path: string, mode: number) {
    this.onChange();
    return done(await this.vfs.chmod(path, mode));
  }

  async truncate(path: string, size: number) {
    this.onChange();
    return done(await this.vfs.truncate(path, size));
  }
}
