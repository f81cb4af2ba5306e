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
    return this.statOf(path, true);
  }

  async lstat(path: string) {
    return this.statOf(path, false);
  }

  private statOf(path: string, follow: boolean) {
    const resolved = this.vfs.store.resolve(path, follow);
    if (!resolved.ok) return error(resolved);
    const stat = this.vfs.store.stat(resolved.path, resolved.inode);
    return { ok: true as const, stat: { ...view(stat), identity: String(resolved.ino) } };
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

  async cp(from: string, to: string, options: { recursive?: boolean } = {}): Promise<{ ok: true } | FsError> {
    this.onChange();
    const source = this.vfs.stat(from);
    if (source.ok && source.stat.type === "dir") {
      if (!options.recursive)
        return { ok: false as const, code: "EISDIR", message: `${from} is a directory (not copied)` };
      // Copying a directory onto an existing one merges, as cp -r src/. dest/ does.
      const target = this.vfs.stat(to);
      if (target.ok && target.stat.type === "dir") {
        const entries = await this.readdir(from);
        if (!entries.ok) return entries;
        for (const entry of entries.entries) {
          const copied = await this.cp(`${from}/${entry.name}`, `${to}/${entry.name}`, options);
          if (!copied.ok) return copied;
        }
        return { ok: true as const };
      }
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
