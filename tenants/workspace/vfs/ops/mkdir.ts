/** mkdir, and mkdir -p with `recursive`. */
import { normalizePath } from "../../paths.ts";
import { type FsResult, fail } from "../errors.ts";
import { DEFAULT_DIR_MODE, type Inode, type Stat, type Store } from "../store.ts";

export function mkdir(
  store: Store,
  path: string,
  options: { recursive?: boolean; mode?: number } = {},
): FsResult<{ stat: Stat }> {
  return store.atomically(() => {
    if (!options.recursive) return make(store, path, options.mode);
    const existing = store.resolve(path, true);
    if (existing.ok) {
      if (existing.inode.type === "dir") return { ok: true as const, stat: store.stat(existing.path, existing.inode) };
      return fail("EEXIST", `file exists: ${existing.path}`, path);
    }
    if (existing.code !== "ENOENT") return existing;
    const ino = store.ensureDirectory(path);
    // As mkdir -p -m: missing parents get the default mode, the last directory the given one.
    if (options.mode !== undefined) store.updateInode(ino, { mode: options.mode & 0o7777 });
    const made = store.resolve(path, true);
    if (!made.ok) return made;
    store.recordChange("mkdir", [made.path]);
    return { ok: true as const, stat: store.stat(made.path, made.inode) };
  });
}

function make(store: Store, path: string, mode = DEFAULT_DIR_MODE): FsResult<{ stat: Stat }> {
  // The root always exists, so making it is EEXIST, as mkdir(2) says for `/`.
  const normalized = normalizePath(path);
  if (normalized.ok && normalized.path === "/") return fail("EEXIST", "file exists: /", path);
  const parent = store.resolveParent(path);
  if (!parent.ok) return parent;
  if (parent.existing) return fail("EEXIST", `file exists: ${parent.path}`, path);
  const ino = store.createInode("dir", mode & 0o7777);
  store.link(parent.parent, parent.name, ino, "dir");
  store.recordChange("mkdir", [parent.path]);
  return { ok: true, stat: store.stat(parent.path, store.inode(ino) as Inode) };
}
