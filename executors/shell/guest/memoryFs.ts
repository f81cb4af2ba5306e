/**
 * Test only: an in-memory WorkspaceFsApi, so the guest's tests need no workspace object.
 * It follows the workspace's rules where the shell can tell (POSIX codes as values, no
 * implicit parent directories, symlink targets relative to the link or absolute from the
 * workspace root, rename(2) replacing files); the real one is the workspace object's.
 */
import { RpcTarget } from "cloudflare:workers";
import type { FsError, FsStat, WorkspaceFsApi } from "../../contract.ts";

/** One object per file: hard links are the same object under two paths. */
type Node = { mode: number; mtime: string; uid?: number; gid?: number } & (
  | { type: "file"; bytes: Uint8Array }
  | { type: "dir" }
  | { type: "symlink"; target: string }
);

type Found = { ok: true; path: string; node: Node | undefined } | FsError;

const fail = (code: string, path: string): FsError => ({ ok: false, code, message: `${code}: ${path}` });
const now = () => new Date().toISOString();
const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";
const join = (dir: string, name: string) => (dir === "/" ? `/${name}` : `${dir}/${name}`);
const isBelow = (path: string, dir: string) => path.startsWith(dir === "/" ? "/" : `${dir}/`) && path !== dir;

export class MemoryFs extends RpcTarget implements WorkspaceFsApi {
  readonly nodes = new Map<string, Node>([["/", { type: "dir", mode: 0o755, mtime: now() }]]);
  /** Every call, by method name, so tests can count round trips. */
  readonly calls: string[] = [];

  /** Test setup: a file with `content`, parents created. */
  put(path: string, content: string | Uint8Array): void {
    let dir = "/";
    for (const name of path.split("/").filter(Boolean).slice(0, -1)) {
      dir = join(dir, name);
      if (!this.nodes.has(dir)) this.nodes.set(dir, { type: "dir", mode: 0o755, mtime: now() });
    }
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    this.nodes.set(path, { type: "file", bytes, mode: 0o644, mtime: now() });
  }

  /** Test inspection: a file's content as text, or undefined. */
  text(path: string): string | undefined {
    const node = this.nodes.get(path);
    return node?.type === "file" ? new TextDecoder().decode(node.bytes) : undefined;
  }

  /** Follows symlinks in every segment, and in the last one when `follow`. */
  private find(path: string, follow: boolean, depth = 0): Found {
    if (depth > 40) return fail("ELOOP", path);
    let current = "/";
    const names = path.split("/").filter((name) => name !== "" && name !== ".");
    for (const [index, name] of names.entries()) {
      const dir = this.nodes.get(current);
      if (dir?.type !== "dir") return fail(dir ? "ENOTDIR" : "ENOENT", path);
      const last = index === names.length - 1;
      current = name === ".." ? parentOf(current) : join(current, name);
      const node = this.nodes.get(current);
      if (node?.type === "symlink" && (!last || follow)) {
        const target = node.target.startsWith("/") ? node.target : `${parentOf(current)}/${node.target}`;
        const rest = names.slice(index + 1).join("/");
        return this.find(rest ? `${target}/${rest}` : target, follow, depth + 1);
      }
    }
    return { ok: true, path: current, node: this.nodes.get(current) };
  }

  private existing(path: string, follow: boolean): { ok: true; path: string; node: Node } | FsError {
    const found = this.find(path, follow);
    if (!found.ok) return found;
    return found.node ? { ok: true, path: found.path, node: found.node } : fail("ENOENT", path);
  }

  /** Where a new entry at `path` goes: its parent must be a directory. */
  private slot(path: string): Found {
    const parent = this.existing(parentOf(path), true);
    if (!parent.ok) return parent;
    if (parent.node.type !== "dir") return fail("ENOTDIR", path);
    const at = join(parent.path, path.slice(path.lastIndexOf("/") + 1));
    return { ok: true, path: at, node: this.nodes.get(at) };
  }

  private stats(node: Node): FsStat {
    const size = node.type === "file" ? node.bytes.length : node.type === "symlink" ? node.target.length : 0;
    const nlink = [...this.nodes.values()].filter((other) => other === node).length;
    return {
      type: node.type,
      size,
      mode: node.mode,
      mtime: node.mtime,
      nlink,
      uid: node.uid ?? 1000,
      gid: node.gid ?? 1000,
    };
  }

  async readFile(path: string) {
    this.calls.push("readFile");
    const found = this.existing(path, true);
    if (!found.ok) return found;
    if (found.node.type !== "file") return fail("EISDIR", path);
    return { ok: true as const, bytes: found.node.bytes.slice() };
  }

  async writeFile(path: string, bytes: Uint8Array, options: { append?: boolean } = {}) {
    this.calls.push("writeFile");
    const linked = this.find(path, true);
    const slot = linked.ok && linked.node ? linked : this.slot(path);
    if (!slot.ok) return slot;
    if (slot.node?.type === "dir") return fail("EISDIR", path);
    const before = options.append && slot.node?.type === "file" ? slot.node.bytes : new Uint8Array(0);
    const joined = new Uint8Array(before.length + bytes.length);
    joined.set(before);
    joined.set(bytes, before.length);
    if (slot.node?.type === "file") {
      // Written in place, so every hard link of it sees the new bytes.
      slot.node.bytes = joined;
      slot.node.mtime = now();
    } else this.nodes.set(slot.path, { type: "file", bytes: joined, mode: slot.node?.mode ?? 0o644, mtime: now() });
    return { ok: true as const };
  }

  async stat(path: string) {
    this.calls.push("stat");
    const found = this.existing(path, true);
    return found.ok ? { ok: true as const, stat: this.stats(found.node) } : found;
  }

  async lstat(path: string) {
    this.calls.push("lstat");
    const found = this.existing(path, false);
    return found.ok ? { ok: true as const, stat: this.stats(found.node) } : found;
  }

  async readdir(path: string) {
    this.calls.push("readdir");
    const found = this.existing(path, true);
    if (!found.ok) return found;
    if (found.node.type !== "dir") return fail("ENOTDIR", path);
    const entries = [...this.nodes]
      .filter(([child]) => child !== found.path && parentOf(child) === found.path)
      .map(([child, node]) => ({ name: child.slice(child.lastIndexOf("/") + 1), type: node.type }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    return { ok: true as const, entries };
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<{ ok: true } | FsError> {
    this.calls.push("mkdir");
    const slot = this.slot(path);
    if (!slot.ok) {
      if (!options.recursive || slot.code !== "ENOENT") return slot;
      const parent: { ok: true } | FsError = await this.mkdir(parentOf(path), options);
      return parent.ok ? this.mkdir(path, options) : parent;
    }
    if (slot.node) return slot.node.type === "dir" && options.recursive ? { ok: true as const } : fail("EEXIST", path);
    this.nodes.set(slot.path, { type: "dir", mode: 0o755, mtime: now() });
    return { ok: true as const };
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}) {
    this.calls.push("rm");
    const found = this.existing(path, false);
    if (!found.ok) return found.code === "ENOENT" && options.force ? { ok: true as const } : found;
    if (found.path === "/") return fail("EINVAL", path);
    const below = [...this.nodes.keys()].filter((key) => isBelow(key, found.path));
    if (below.length > 0 && !options.recursive) return fail("ENOTEMPTY", path);
    for (const key of [found.path, ...below]) this.nodes.delete(key);
    return { ok: true as const };
  }

  async mv(from: string, to: string) {
    this.calls.push("mv");
    const source = this.existing(from, false);
    if (!source.ok) return source;
    const dest = this.slot(to);
    if (!dest.ok) return dest;
    if (dest.path === source.path) return { ok: true as const };
    if (isBelow(dest.path, source.path)) return fail("EINVAL", to);
    if (dest.node?.type === "dir" && (source.node.type !== "dir" || (await this.readdirCount(dest.path)) > 0)) {
      return fail(source.node.type === "dir" ? "ENOTEMPTY" : "EISDIR", to);
    }
    for (const [key, node] of [...this.nodes]) {
      if (key !== source.path && !isBelow(key, source.path)) continue;
      this.nodes.delete(key);
      this.nodes.set(dest.path + key.slice(source.path.length), node);
    }
    return { ok: true as const };
  }

  private async readdirCount(path: string): Promise<number> {
    return [...this.nodes.keys()].filter((key) => isBelow(key, path)).length;
  }

  async cp(from: string, to: string, options: { recursive?: boolean } = {}) {
    this.calls.push("cp");
    const source = this.existing(from, true);
    if (!source.ok) return source;
    if (source.node.type === "dir" && !options.recursive) return fail("EISDIR", from);
    const dest = this.slot(to);
    if (!dest.ok) return dest;
    if (isBelow(dest.path, source.path)) return fail("EINVAL", to);
    for (const [key, node] of [...this.nodes]) {
      if (key !== source.path && !isBelow(key, source.path)) continue;
      const copy = node.type === "file" ? { ...node, bytes: node.bytes.slice() } : { ...node };
      this.nodes.set(dest.path + key.slice(source.path.length), copy);
    }
    return { ok: true as const };
  }

  async symlink(target: string, path: string) {
    this.calls.push("symlink");
    const slot = this.slot(path);
    if (!slot.ok) return slot;
    if (slot.node) return fail("EEXIST", path);
    this.nodes.set(slot.path, { type: "symlink", target, mode: 0o777, mtime: now() });
    return { ok: true as const };
  }

  async readlink(path: string) {
    this.calls.push("readlink");
    const found = this.existing(path, false);
    if (!found.ok) return found;
    return found.node.type === "symlink" ? { ok: true as const, target: found.node.target } : fail("EINVAL", path);
  }

  async chmod(path: string, mode: number) {
    this.calls.push("chmod");
    const found = this.existing(path, true);
    if (!found.ok) return found;
    found.node.mode = mode & 0o7777;
    return { ok: true as const };
  }

  async link(existing: string, path: string) {
    this.calls.push("link");
    const source = this.existing(existing, false);
    if (!source.ok) return source;
    if (source.node.type === "dir") return fail("EPERM", existing);
    const slot = this.slot(path);
    if (!slot.ok) return slot;
    if (slot.node) return fail("EEXIST", path);
    this.nodes.set(slot.path, source.node);
    return { ok: true as const };
  }

  async chown(path: string, owner: { uid?: number; gid?: number }, options: { follow?: boolean } = {}) {
    this.calls.push("chown");
    const found = this.existing(path, options.follow ?? true);
    if (!found.ok) return found;
    if (owner.uid !== undefined) found.node.uid = owner.uid;
    if (owner.gid !== undefined) found.node.gid = owner.gid;
    return { ok: true as const };
  }

  async utimes(path: string, mtimeNs: string | null, options: { follow?: boolean } = {}) {
    this.calls.push("utimes");
    const found = this.existing(path, options.follow ?? true);
    if (!found.ok) return found;
    found.node.mtime = mtimeNs === null ? now() : new Date(Number(BigInt(mtimeNs) / 1_000_000n)).toISOString();
    return { ok: true as const };
  }

  async truncate(path: string, size: number) {
    this.calls.push("truncate");
    const found = this.existing(path, true);
    if (!found.ok) return found;
    if (found.node.type !== "file") return fail("EISDIR", path);
    const bytes = new Uint8Array(size);
    bytes.set(found.node.bytes.subarray(0, size));
    found.node.bytes = bytes;
    return { ok: true as const };
  }
}
