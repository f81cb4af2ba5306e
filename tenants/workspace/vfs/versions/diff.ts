/**
 * What changed between two revisions, path by path. Its cost follows the changes: the row
 * versions born or ended in (from, to] are found through the `born_rev` / `died_rev`
 * indexes, each names a path on one side or the other, and only those paths are compared.
 * A renamed directory is one `renamed` entry (its children's rows did not change); a file
 * keeps its inode number across a rename, which is how a rename is told from a delete and
 * an add. Directories are listed when added, deleted or renamed, and as modified only when
 * their mode or owner changed: their times and entry counts move with every change inside
 * them, which the entries inside already show.
 */
import { structuredPatch } from "diff";
import { workspaceLimits } from "../../limits.ts";
import { isWithin } from "../../paths.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Inode, InodeType, Store } from "../store.ts";
import { RevisionTree } from "./at.ts";

export interface DiffSide {
  type: InodeType;
  size: number;
  mode: number;
  etag?: string;
  target?: string;
}

export interface DiffEntry {
  path: string;
  status: "added" | "modified" | "deleted" | "renamed";
  /** For `renamed`: where it was. */
  previousPath?: string;
  /** The entry at `from` (absent for `added`) and at `to` (absent for `deleted`). */
  before?: DiffSide;
  after?: DiffSide;
}

export interface Diff {
  from: number;
  to: number;
  entries: DiffEntry[];
  /** More paths changed than one answer lists (`diffEntriesMax`). */
  truncated: boolean;
}

export interface ChangedRows {
  entries: { parent: number; name: string }[];
  inodes: { ino: number }[];
}

/** Inode numbers and (parent, name) entries with a version born or ended in (from, to]. */
export function changedRows(store: Store, from: number, to: number): ChangedRows {
  const range = [from, to, from, to] as const;
  const entries = store.sql
    .exec<{ parent: number; name: string }>(
      `SELECT parent, name FROM dirents WHERE born_rev > ? AND born_rev <= ?
       UNION SELECT parent, name FROM dirents_hist WHERE born_rev > ? AND born_rev <= ?
       UNION SELECT parent, name FROM dirents_hist WHERE died_rev > ? AND died_rev <= ?`,
      ...range,
      from,
      to,
    )
    .toArray();
  const inodes = store.sql
    .exec<{ ino: number }>(
      `SELECT ino FROM inodes WHERE born_rev > ? AND born_rev <= ?
       UNION SELECT ino FROM inodes_hist WHERE born_rev > ? AND born_rev <= ?
       UNION SELECT ino FROM inodes_hist WHERE died_rev > ? AND died_rev <= ?`,
      ...range,
      from,
      to,
    )
    .toArray();
  return { entries, inodes };
}

function sideOf(inode: Inode): DiffSide {
  const side: DiffSide = { type: inode.type, size: inode.size, mode: inode.mode };
  if (inode.etag) side.etag = inode.etag;
  if (inode.target !== null) side.target = inode.target;
  return side;
}

/** Whether a user would see a difference: content, mode, owner, mtime or link target (not ctime, not nlink). */
export function differs(a: Inode, b: Inode): boolean {
  return (
    a.etag !== b.etag ||
    a.size !== b.size ||
    a.mode !== b.mode ||
    a.target !== b.target ||
    a.uid !== b.uid ||
    a.gid !== b.gid ||
    a.mtime_ms !== b.mtime_ms ||
    a.mtime_nsec !== b.mtime_nsec
  );
}

/** A directory a user would see changed: its mode or owner (its times and entry count follow what is inside). */
function dirDiffers(a: Inode, b: Inode): boolean {
  return a.mode !== b.mode || a.uid !== b.uid || a.gid !== b.gid;
}

type Found = { ino: number; inode: Inode } | null;

/**
 * The differences from revision `from` to `to`, at most `max` entries; with `within` (a
 * normalised path), only entries at or under it, a rename counted when either end is.
 */
export function diff(
  store: Store,
  from: number,
  to: number,
  max: number = workspaceLimits.diffEntriesMax,
  within: string | null = null,
  /** The two trees and the changed rows, when the caller (a restore) has them already. */
  prepared?: { before: RevisionTree; after: RevisionTree; changed: ChangedRows },
): Diff {
  const before = prepared?.before ?? new RevisionTree(store.sql, from);
  const after = prepared?.after ?? new RevisionTree(store.sql, to);
  const changed = prepared?.changed ?? changedRows(store, Math.min(from, to), Math.max(from, to));
  // Every changed inode's row and names on both sides, set-wise, before the loops ask one by one.
  const changedInos = changed.inodes.map((row) => row.ino);
  before.preload(changedInos);
  after.preload(changedInos);
  // Each candidate path, with the entry it names on a side where a changed row gave it
  // (so that side needs no walk from the root); the other side is resolved by path.
  const candidates = new Map<string, { a?: Found; b?: Found }>();
  const note = (tree: RevisionTree, side: "a" | "b", path: string, ino: number | null) => {
    const candidate = candidates.get(path) ?? {};
    const inode = ino === null ? null : tree.inode(ino);
    candidate[side] = ino === null || !inode ? null : { ino, inode };
    candidates.set(path, candidate);
  };
  for (const [tree, side] of [
    [before, "a"],
    [after, "b"],
  ] as const) {
    for (const { parent, name } of changed.entries) {
      const dir = tree.dirPath(parent);
      if (dir !== null) note(tree, side, `${dir}/${name}`, tree.entry(parent, name));
    }
    for (const { ino } of changed.inodes) {
      for (const name of tree.namesOf(ino)) {
        const dir = tree.dirPath(name.parent);
        if (dir !== null) note(tree, side, `${dir}/${name.name}`, ino);
      }
    }
  }
  const at = (tree: RevisionTree, path: string): Found => {
    const found = store.resolve(path, false, tree);
    return found.ok ? { ino: found.ino, inode: found.inode } : null;
  };
  const sides = [...candidates.keys()].sort().map((path) => {
    const known = candidates.get(path) as { a?: Found; b?: Found };
    return {
      path,
      a: known.a !== undefined ? known.a : at(before, path),
      b: known.b !== undefined ? known.b : at(after, path),
    };
  });
  // Renames: an inode that left one path and arrived at another.
  const left = new Map<number, string>();
  const arrived = new Map<number, string>();
  for (const { path, a, b } of sides) {
    if (a && a.ino !== b?.ino && !left.has(a.ino)) left.set(a.ino, path);
    if (b && b.ino !== a?.ino && !arrived.has(b.ino)) arrived.set(b.ino, path);
  }
  const renamedTo = new Map<string, string>();
  for (const [ino, path] of arrived) {
    const previous = left.get(ino);
    if (previous !== undefined) renamedTo.set(path, previous);
  }
  const renamedFrom = new Set(renamedTo.values());
  const entries: DiffEntry[] = [];
  for (const { path, a, b } of sides) {
    const previousPath = renamedTo.get(path);
    if (previousPath !== undefined && b) {
      const was = at(before, previousPath) as NonNullable<Found>;
      entries.push({ path, status: "renamed", previousPath, before: sideOf(was.inode), after: sideOf(b.inode) });
      continue;
    }
    // The old name of a rename is told by the rename; anything now there is new.
    const aGone = a !== null && renamedFrom.has(path) ? null : a;
    if (!aGone && b && (!a || a.ino !== b.ino)) entries.push({ path, status: "added", after: sideOf(b.inode) });
    else if (aGone && !b) entries.push({ path, status: "deleted", before: sideOf(aGone.inode) });
    else if (aGone && b && aGone.ino !== b.ino)
      entries.push({ path, status: "modified", before: sideOf(aGone.inode), after: sideOf(b.inode) });
    else if (aGone && b && (b.inode.type === "dir" ? dirDiffers(aGone.inode, b.inode) : differs(aGone.inode, b.inode)))
      entries.push({ path, status: "modified", before: sideOf(aGone.inode), after: sideOf(b.inode) });
  }
  const inside =
    within === null
      ? entries
      : entries.filter(
          (entry) =>
            isWithin(entry.path, within) || (entry.previousPath !== undefined && isWithin(entry.previousPath, within)),
        );
  return { from, to, entries: inside.slice(0, max), truncated: inside.length > max };
}

/** The bytes of the file at `path` at a revision, or null when it is absent, not a file or too large. */
async function text(store: Store, tree: RevisionTree, path: string): Promise<string | null | "binary"> {
  const found = store.resolve(path, false, tree);
  if (!found.ok || found.inode.type !== "file") return null;
  if (found.inode.size > workspaceLimits.patchFileBytesMax) return "binary";
  const parts: Uint8Array[] = [];
  for (const chunk of tree.chunks(found.ino)) parts.push(await store.chunkBytes(chunk.hash));
  const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
  if (bytes.includes(0)) return "binary";
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return "binary";
  }
}

/**
 * The diff as unified patch text, `git diff` style: one section per changed text file,
 * "Binary files … differ" for binary or oversized ones; directories and links are left out.
 * EFBIG once the text passes `bytesMax` (UTF-8): one answer stays a bounded size, and the
 * caller is told how to narrow it rather than handed a patch cut off mid-file.
 */
export async function patch(
  store: Store,
  result: Diff,
  bytesMax: number = workspaceLimits.patchBytesMax,
): Promise<FsResult<{ patch: string }>> {
  const before = new RevisionTree(store.sql, result.from);
  const after = new RevisionTree(store.sql, result.to);
  const encoder = new TextEncoder();
  const sections: string[] = [];
  let bytes = 0;
  for (const entry of result.entries) {
    const section = await patchSection(store, before, after, entry);
    bytes += encoder.encode(section).byteLength;
    if (bytes > bytesMax) {
      return fail(
        "EFBIG",
        `the patch is larger than ${sizeText(bytesMax)}, the most one answer carries; narrow it with \`path\` (a file or a directory), a closer \`from\` and \`to\`, or ask \`format=json\` for the changed paths alone`,
      );
    }
    sections.push(section);
  }
  return { ok: true, patch: sections.join("") };
}

/** One entry's part of the patch ("" for directories, links, and files whose text is the same). */
async function patchSection(store: Store, before: RevisionTree, after: RevisionTree, entry: DiffEntry) {
  const oldPath = entry.previousPath ?? entry.path;
  const isFile = entry.before?.type === "file" || entry.after?.type === "file";
  if (!isFile) return "";
  const a = entry.status === "added" ? null : await text(store, before, oldPath);
  const b = entry.status === "deleted" ? null : await text(store, after, entry.path);
  const aName = a === null ? "/dev/null" : `a${oldPath}`;
  const bName = b === null ? "/dev/null" : `b${entry.path}`;
  let out = `diff --git a${oldPath} b${entry.path}\n`;
  // git's extended header lines, without which `git apply` cannot create or delete a file.
  const modeBefore = entry.before?.type === "file" ? gitMode(entry.before.mode) : null;
  const modeAfter = entry.after?.type === "file" ? gitMode(entry.after.mode) : null;
  if (aName === "/dev/null" && modeAfter) out += `new file mode ${modeAfter}\n`;
  else if (bName === "/dev/null" && modeBefore) out += `deleted file mode ${modeBefore}\n`;
  else if (modeBefore && modeAfter && modeBefore !== modeAfter)
    out += `old mode ${modeBefore}\nnew mode ${modeAfter}\n`;
  if (entry.status === "renamed") out += `rename from ${oldPath.slice(1)}\nrename to ${entry.path.slice(1)}\n`;
  if (a === "binary" || b === "binary") return `${out}Binary files ${aName} and ${bName} differ\n`;
  const hunks = structuredPatch(aName, bName, a ?? "", b ?? "", "", "", { context: 3 }).hunks;
  if (hunks.length === 0) return out;
  out += `--- ${aName}\n+++ ${bName}\n`;
  for (const hunk of hunks) {
    out += `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@\n`;
    for (const line of hunk.lines) out += `${line}\n`;
  }
  return out;
}

const MIB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB (${bytes} bytes)` : `${bytes} bytes`);

/** A file's mode as git writes it: only the executable bit survives. */
const gitMode = (mode: number) => (mode & 0o111 ? "100755" : "100644");
