/**
 * Confinement to a path prefix: the check behind a credential limited to `/src`. A path
 * is inside when it is lexically `/src` or below it AND it still is once symlinks are
 * followed, as the operation would follow them. The second half is what makes a link
 * inside the prefix pointing elsewhere (`/src/etc -> /secrets`) useless as an escape,
 * whoever made it: every use is checked where it lands, not where it was created.
 *
 * The directories above the prefix (`/` for `/src`) may be stat'ed but not listed, like a
 * Unix directory with only its `x` bit: enough for `cd` and realpath to walk down to the
 * prefix, nothing about what else is there.
 */
import { workspaceLimits } from "../limits.ts";
import { isAncestorOf, isWithin, normalizePath } from "../paths.ts";
import { type FsFailure, fail } from "./errors.ts";
import type { Store } from "./store.ts";

/** A path an operation reaches, and whether it follows a final symlink there. */
export interface Reach {
  path: string;
  follow: boolean;
}

export const follows = (path: string): Reach => ({ path, follow: true });
export const entry = (path: string): Reach => ({ path, follow: false });

/**
 * Null when every reach stays inside `prefix`, else the EACCES failure for the first that
 * does not. `ancestors` lets stat/lstat see the directories above the prefix.
 */
export function confine(
  store: Store,
  prefix: string,
  reaches: readonly Reach[],
  { ancestors = false } = {},
): FsFailure | null {
  for (const { path, follow } of reaches) {
    const lexical = normalizePath(path);
    // An unusable path is refused by the operation itself, with its own reason.
    if (!lexical.ok) continue;
    if (ancestors && isAncestorOf(lexical.path, prefix)) continue;
    if (!isWithin(lexical.path, prefix)) return outside(lexical.path, prefix);
    const landed = physicalPath(store, lexical.path, follow, 0);
    if (landed !== null && !isWithin(landed, prefix)) {
      return fail(
        "EACCES",
        `${lexical.path} leads to ${landed} (through a symlink), outside this token's path prefix ${prefix}`,
        path,
      );
    }
  }
  return null;
}

/**
 * A new link's target must also land inside: resolved from the link's directory as the
 * store will resolve it (`..` allowed, stopping at the root), then followed.
 */
export function confineLinkTarget(store: Store, prefix: string, target: string, linkPath: string): FsFailure | null {
  const link = normalizePath(linkPath);
  if (!link.ok) return null;
  const dir = physicalPath(store, link.path, false, 0) ?? link.path;
  const base = dir.slice(0, dir.lastIndexOf("/"));
  const lexical = normalizePath(target.startsWith("/") ? target : `${base}/${target}`, { allowDotDot: true });
  if (!lexical.ok) return null;
  if (!isWithin(lexical.path, prefix)) {
    return fail(
      "EACCES",
      `the link target ${target} is ${lexical.path}, outside this token's path prefix ${prefix}`,
      linkPath,
    );
  }
  return confine(store, prefix, [follows(lexical.path)]);
}

function outside(path: string, prefix: string): FsFailure {
  return fail("EACCES", `${path} is outside this token's path prefix ${prefix}`, path);
}

/**
 * Where a (normalized) path lands once symlinks are followed — through every directory,
 * and through the last name too when `follow`. A name that does not exist yet lands under
 * wherever its parent lands; a dangling link lands where its target would be. Null when
 * the path cannot be resolved for another reason (ELOOP, ENOTDIR…): the operation fails
 * on it the same way.
 */
function physicalPath(store: Store, path: string, follow: boolean, hops: number): string | null {
  const found = store.resolve(path, follow);
  if (found.ok) return found.path;
  if (found.code !== "ENOENT" || path === "/") return null;
  const parent = store.resolveParent(path);
  if (parent.ok) {
    const dangling = parent.existing?.type === "symlink" && follow ? (parent.existing.target ?? "") : null;
    if (dangling === null) return parent.path;
    if (hops >= workspaceLimits.symlinkHopsMax) return null;
    const base = parent.path.slice(0, parent.path.lastIndexOf("/"));
    const next = normalizePath(dangling.startsWith("/") ? dangling : `${base}/${dangling}`, { allowDotDot: true });
    return next.ok ? physicalPath(store, next.path, true, hops + 1) : null;
  }
  if (parent.code !== "ENOENT") return null;
  // The parent is missing too (mkdir -p, a write creating directories): it lands where its own parent does.
  const cut = path.lastIndexOf("/");
  const dir = physicalPath(store, path.slice(0, cut) || "/", true, hops);
  if (dir === null) return null;
  return `${dir === "/" ? "" : dir}/${path.slice(cut + 1)}`;
}
