/**
 * The file capability handed to an executor's sandbox for one run: an RpcTarget over this
 * workspace's filesystem and nothing else (passed as a method argument, so the sandbox
 * can call back into the object without any binding of its own). Results are values with
 * POSIX codes, as the contract's WorkspaceFsApi says.
 *
 * A run for a credential confined to a path prefix gets the confined filesystem
 * (ConfinedVfs): every path it reaches — both ends of a move or copy, a link and its target
 * — must be inside the prefix, or the call answers EACCES naming the prefix. The
 * directories above the prefix answer stat/lstat (so `cd` and realpath can walk down to it)
 * but not readdir.
 */
import { RpcTarget } from "cloudflare:workers";
import type { FsError, FsStat, WorkspaceFsApi } from "../../../executors/contract.ts";
import { ConfinedVfs, type VfsOps } from "../vfs/ConfinedVfs.ts";
import { entry, follows } from "../vfs/confine.ts";
import type { FsFailure } from "../vfs/errors.ts";
import type { Stat } from "../vfs/store.ts";
import { parseNs } from "../vfs/times.ts";
import type { Vfs } from "../vfs/Vfs.ts";

/** Largest file a sandbox reads whole (just-bash reads files whole). */
const READ_BYTES_MAX = 64 * 1024 * 1024;

const error = (failure: FsFailure): FsError => ({ ok: false, code: failure.code, message: failure.message });
const view = (stat: Stat): FsStat => ({
  type: stat.type,
  size: stat.size,
  mode: stat.mode,
  mtime: stat.mtime,
  mtimeNs: stat.mtimeNs,
  nlink: stat.nlink,
  uid: stat.uid,
  gid: stat.gid,
});
const done = <T extends { ok: boolean }>(result: T) =>
  result.ok ? { ok: true as const } : error(result as unknown as FsFailure);

/**
 * `fs` with every call made as `actor`: mutations ask for the lock synchronously when
 * called, which is when Vfs.actingAs records who asked. A proxy, so no operation is missed.
 */
function actingAs(vfs: Vfs, actor: string | null, fs: VfsOps): VfsOps {
  if (actor === null) return fs;
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => vfs.actingAs(actor, () => value.apply(target, args));
    },
  });
}

export class WorkspaceFsTarget extends RpcTarget implements WorkspaceFsApi {
  /** What the run's calls go through: the whole filesystem, or the confined view of it. */
  private readonly fs: VfsOps;
  private readonly confined: ConfinedVfs | null;
  private readonly onChange: () => void;

  constructor(
    private readonly vfs: Vfs,
    options: {
      /** Called after every change, so the gateway's counters mirror can be refreshed once the run ends. */
      onChange?: () => void;
      /** The path prefix the run's credential is confined to, or null for the whole workspace. */
      pathPrefix?: string | null;
      /** Who the run's changes are recorded as in the history (`exec:<id>`). */
      actor?: string | null;
    } = {},
  ) {
    super();
    this.onChange = options.onChange ?? (() => {});
    this.confined = options.pathPrefix ? new ConfinedVfs(vfs, options.pathPrefix) : null;
    this.fs = actingAs(vfs, options.actor ?? null, this.confined ?? vfs);
  }

  async readFile(path: string) {
    // The sandbox holds what it reads in memory; past this, the container executor streams.
    const stat = this.fs.stat(path);
    if (stat.ok && stat.stat.size > READ_BYTES_MAX) {
      return {
        ok: false as const,
        code: "EFBIG",
        message: `${path} is larger than ${READ_BYTES_MAX} bytes; use the container executor`,
      };
    }
    const result = await this.fs.readBytes(path);
    return result.ok ? { ok: true as const, bytes: result.bytes } : error(result);
  }

  async writeFile(path: string, bytes: Uint8Array, options: { append?: boolean } = {}) {
    this.onChange();
    return done(await this.fs.write(path, bytes, { mode: options.append ? "append" : "overwrite", parents: false }));
  }

  async stat(path: string) {
    return this.statOf(path, true);
  }

  async lstat(path: string) {
    return this.statOf(path, false);
  }

  private statOf(path: string, follow: boolean) {
    const refused = this.confined?.refuse([follow ? follows(path) : entry(path)], { ancestors: true });
    if (refused) return error(refused);
    const resolved = this.vfs.store.resolve(path, follow);
    if (!resolved.ok) return error(resolved);
    const stat = this.vfs.store.stat(resolved.path, resolved.inode);
    return { ok: true as const, stat: { ...view(stat), identity: String(resolved.ino) } };
  }

  async readdir(path: string) {
    const entries: { name: string; type: FsStat["type"] }[] = [];
    let cursor: string | undefined;
    do {
      const page = this.fs.list(path, { limit: 10_000, cursor });
      if (!page.ok) return error(page);
      entries.push(...page.entries.map((e) => ({ name: e.name, type: e.type })));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { ok: true as const, entries };
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}) {
    this.onChange();
    return done(await this.fs.mkdir(path, { recursive: options.recursive ?? false }));
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}) {
    this.onChange();
    const result = await this.fs.remove(path, { recursive: options.recursive ?? false });
    if (!result.ok && result.code === "ENOENT" && options.force) return { ok: true as const };
    return done(result);
  }

  async mv(from: string, to: string) {
    this.onChange();
    return done(await this.fs.move(from, to));
  }

  async cp(from: string, to: string, options: { recursive?: boolean } = {}): Promise<{ ok: true } | FsError> {
    this.onChange();
    const source = this.fs.stat(from);
    if (source.ok && source.stat.type === "dir") {
      if (!options.recursive)
        return { ok: false as const, code: "EISDIR", message: `${from} is a directory (not copied)` };
      // Copying a directory onto an existing one merges, as cp -r src/. dest/ does.
      const target = this.fs.stat(to);
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
    return done(await this.fs.copy(from, to, { overwrite: true }));
  }

  async symlink(target: string, path: string) {
    this.onChange();
    return done(await this.fs.symlink(target, path));
  }

  async readlink(path: string) {
    const result = this.fs.readlink(path);
    return result.ok ? { ok: true as const, target: result.target } : error(result);
  }

  async chmod(path: string, mode: number) {
    this.onChange();
    return done(await this.fs.chmod(path, mode));
  }

  async truncate(path: string, size: number) {
    this.onChange();
    return done(await this.fs.truncate(path, size));
  }

  async link(existing: string, path: string) {
    this.onChange();
    return done(await this.fs.link(existing, path));
  }

  async chown(path: string, owner: { uid?: number; gid?: number }, options: { follow?: boolean } = {}) {
    this.onChange();
    return done(await this.fs.chown(path, owner, options));
  }

  async utimes(path: string, mtimeNs: string | null, options: { follow?: boolean } = {}) {
    const mtime = mtimeNs === null ? "now" : parseNs(mtimeNs);
    if (mtime === null) return { ok: false as const, code: "EINVAL", message: `not a time in nanoseconds: ${mtimeNs}` };
    this.onChange();
    return done(await this.fs.utimes(path, mtime, options));
  }
}
