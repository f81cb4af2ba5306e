/**
 * Placeholders in the native mode. A file whose content is not downloaded yet is a sparse
 * file of the right size, mode, owner and time, marked with a `trusted.*` extended attribute
 * that names the content: `<etag> <workspace path>`. The fanotify helper (../native/) sees
 * the mark when a command first reads or writes the file, asks computerd for the content
 * (`fillPlaceholder`), writes it in and removes the mark.
 *
 * The mark travels with the inode, so a placeholder the command renames or links before
 * reading still knows what it holds; the path in it is where the object had the content,
 * and the ETag says which version.
 */
import { chmodSync, chownSync, lstatSync, renameSync, utimesSync } from "node:fs";
import { rm } from "node:fs/promises";
import { getAttributeSync, setAttributeSync } from "@napi-rs/xattr";
import type { Hydrator } from "../sync/hydrate.ts";
import type { HydrateAnswer } from "./fanotify.ts";
import { nativeLimits } from "./limits.ts";

export interface PlaceholderKey {
  etag: string;
  path: string;
}

export function markPlaceholder(local: string, key: PlaceholderKey): void {
  setAttributeSync(local, nativeLimits.placeholderXattr, `${key.etag} ${key.path}`);
}

/** The key of the placeholder at `local`, or null when the file holds its content. */
export function placeholderOf(local: string): PlaceholderKey | null {
  let value: Buffer | null;
  try {
    value = getAttributeSync(local, nativeLimits.placeholderXattr);
  } catch {
    return null;
  }
  return value ? parseKey(value.toString("utf8")) : null;
}

export function parseKey(value: string): PlaceholderKey | null {
  const space = value.indexOf(" ");
  if (space <= 0) return null;
  return { etag: value.slice(0, space), path: value.slice(space + 1) };
}

/**
 * The content a placeholder stands for, as the helper takes it: inline when small, else in a
 * file on the host's filesystem (never the workspace's: the helper refuses to read a file
 * there, since that read would wait on itself), removed once the helper copied it. A
 * positive errno when it cannot be had (the path is gone from the object, no session came).
 * A newer version than the mark names is the object's content now, as in the FUSE mode: it
 * is served (the next pull would bring it anyway) rather than the read failing.
 */
export async function fetchPlaceholder(
  hydrator: Hydrator,
  key: PlaceholderKey,
  hostTmpPath: () => string,
): Promise<HydrateAnswer> {
  const fetched = await hydrator.fetch(key.path, { tmpPath: hostTmpPath, inlineBytesMax: nativeLimits.inlineBytesMax });
  if (!fetched.ok) return { errno: -fetched.errno };
  if ("bytes" in fetched) return { bytes: fetched.bytes };
  const file = fetched.tmp;
  return { file, release: () => rm(file, { force: true }) };
}

/**
 * Fills the placeholder at `local` in computerd itself (the helper answers computerd's own
 * reads at once, so computerd must never read a placeholder's zeros as content): before a
 * push, for one the command renamed or linked elsewhere. Keeps mode, owner and times.
 */
export async function materialize(hydrator: Hydrator, local: string, key: PlaceholderKey): Promise<boolean> {
  // Without inlineBytesMax the content always comes as a file beside the placeholder.
  const fetched = await hydrator.fetch(key.path);
  if (!fetched.ok || !("tmp" in fetched)) return false;
  const st = lstatSync(local);
  const tmp = fetched.tmp;
  chmodSync(tmp, st.mode & 0o7777);
  chownSync(tmp, st.uid, st.gid);
  utimesSync(tmp, st.atime, st.mtime);
  renameSync(tmp, local);
  return true;
}
