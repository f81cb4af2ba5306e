/**
 * The conflict rule of container sync (docs/container-sync.md, "Conflicts"), as pure
 * functions shared by both places that apply the container's ops: the workspace object
 * (tenants/workspace/execs/syncApply.ts) and the in-memory twin computerd's tests run against
 * (container/src/testing/memoryApply.ts). Like the rest of container/wire it imports
 * nothing at run time, so a Worker and Node both load it.
 *
 * An op carries its base: what the container last knew at the path. The object compares
 * three states of the path: the base, what it holds now (`current`), and what the op wants.
 */
import type { SyncBase } from "./index.ts";

export const conflictLimits = {
  /**
   * Names tried for one conflict copy (`a.conflict-<stamp>.txt`, then `-2`, `-3`…) before the
   * op is refused and stays pending: each taken name holds something else (a user's file of
   * that name, or an earlier copy the API edited), and a hundred of them is a runaway.
   */
  namesTriedMax: 100,
  /** Linux NAME_MAX in bytes, as the workspace enforces it: a copy's name is shortened to fit. */
  nameBytesMax: 255,
} as const;

/** The op's intent: a state, or "attrs" for a mode change that leaves the content as it was. */
export type SyncWant = SyncBase | "attrs";

/**
 * - `same`: the path already holds what the op wants (a batch sent again, or both sides made
 *   the same change); only the mode is brought in line.
 * - `apply`: the path still holds the base: the op replaces it.
 * - `unchanged`: the op brings the path back to its base, so the container changed nothing
 *   here in the end (a temporary file made and removed); the object's newer version stays.
 * - `conflict`: both sides changed the path. The object's version stays; the container's is
 *   saved beside it (or, for a removal or mode change, dropped) and reported.
 */
export type SyncVerdict = "same" | "apply" | "unchanged" | "conflict";

export function sameState(a: SyncBase, b: SyncBase): boolean {
  if (a === null || b === null) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === "file") return a.etag === (b as { etag: string }).etag;
  if (a.type === "symlink") return a.target === (b as { target: string }).target;
  return true;
}

/**
 * The verdict for one op. `base` undefined is an op from a computerd that sends none: it is
 * applied as it always was. `currentDirEmpty` says whether a directory now at the path is
 * empty: replacing or removing a directory is only ever done to an empty one, because the
 * entries the container knew under it arrive as their own removals first, and anything
 * left is someone else's.
 */
export function syncVerdict(
  base: SyncBase | undefined,
  current: SyncBase,
  want: SyncWant,
  currentDirEmpty: boolean,
): SyncVerdict {
  if (base === undefined) return "apply";
  if (want === "attrs") return sameState(current, base) ? "apply" : "conflict";
  if (sameState(current, want)) return "same";
  if (sameState(current, base)) {
    if (current?.type === "dir" && !currentDirEmpty) return "conflict";
    return "apply";
  }
  if (sameState(want, base)) return "unchanged";
  // A directory made where the object now has nothing replaces nothing: it merges in.
  if (want?.type === "dir" && current === null) return "apply";
  return "conflict";
}

/**
 * A short, stable tag for a conflict copy's name: FNV-1a (32 bits) of the object's version
 * that was kept. Stable, so a batch sent again finds the copy it made the first time instead
 * of making another; a hash of the kept version rather than a counter or a time for that
 * reason. Hand-written because it must run synchronously inside the object's transaction and
 * needs no strength: two versions that share a tag only push the second copy to `-2`.
 */
export function conflictStamp(kept: SyncBase): string {
  const text =
    kept === null
      ? "none"
      : kept.type === "file"
        ? `file:${kept.etag}`
        : kept.type === "symlink"
          ? `symlink:${kept.target}`
          : "dir";
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * The `attempt`th name for the container's version of `path`, in the same directory:
 * `report.txt` → `report.conflict-<stamp>.txt`, then `report.conflict-<stamp>-2.txt`; a name
 * without an extension (or a dotfile) gets the tag at its end: `.env` → `.env.conflict-<stamp>`.
 * A long name loses characters from its stem so the result stays within NAME_MAX bytes.
 */
export function conflictName(path: string, stamp: string, attempt = 1): string {
  const cut = path.lastIndexOf("/");
  const dir = path.slice(0, cut + 1);
  const name = path.slice(cut + 1);
  const dot = name.lastIndexOf(".");
  const hasExt = dot > 0 && dot < name.length - 1;
  let stem = hasExt ? name.slice(0, dot) : name;
  const ext = hasExt ? name.slice(dot) : "";
  const tag = `.conflict-${stamp}${attempt > 1 ? `-${attempt}` : ""}`;
  const bytes = (s: string) => new TextEncoder().encode(s).byteLength;
  while (stem.length > 1 && bytes(stem + tag + ext) > conflictLimits.nameBytesMax)
    stem = [...stem].slice(0, -1).join("");
  return `${dir}${stem}${tag}${ext}`;
}

/** The proper ancestors of a normalized workspace path, root excluded, nearest the root first: `/a/b/c` → `/a`, `/a/b`. */
export function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let at = path.indexOf("/", 1); at > 0; at = path.indexOf("/", at + 1)) out.push(path.slice(0, at));
  return out;
}
