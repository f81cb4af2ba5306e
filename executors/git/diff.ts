/**
 * Differences between two states of a repository — a commit, the index, the working tree,
 * or nothing (before the first commit) — as per-file changes and as git's unified diff
 * text. isomorphic-git has no diff: its `walk` pairs the two states path by path and
 * compares blob ids, and the `diff` package makes the hunks of the files that differ.
 *
 * The working tree counts only for paths in the index, as git's: an untracked file is
 * in neither `git diff` nor `git diff HEAD`, and untracked directories are not walked.
 */
import { structuredPatch } from "diff";
import { readBlob, STAGE, TREE, type WalkerEntry, WORKDIR, walk } from "isomorphic-git";
import type { GitRepo as Repo } from "./gitFs.ts";
import { gitLimits } from "./limits.ts";

/** One side of a comparison. */
export type DiffSide = { kind: "commit"; oid: string } | { kind: "empty" } | { kind: "index" } | { kind: "workdir" };

interface Blob {
  oid: string;
  mode: number;
  content: () => Promise<Uint8Array>;
}

/** One path that differs between the two sides. */
export interface GitFileChange {
  path: string;
  status: "added" | "modified" | "deleted";
  /** Blob ids and modes (`0o100644`…) on each side; null where the path is absent. */
  oldOid: string | null;
  newOid: string | null;
  oldMode: number | null;
  newMode: number | null;
  /** Lines added and removed; null for a binary or oversized file (git's numstat prints `-`). */
  added: number | null;
  removed: number | null;
  /** The `diff --git` section for this file. */
  patch: string;
}

const zeroOid = "0000000";
const short = (oid: string | null) => (oid ? oid.slice(0, 7) : zeroOid);
const octal = (mode: number) => mode.toString(8).padStart(6, "0");

/** Whether the walk should look at `path` (or below it) for these path filters. */
export function worthWalking(path: string, filters: string[]): boolean {
  if (path === "." || filters.length === 0) return true;
  return filters.some(
    (base) => base === "." || path === base || path.startsWith(`${base}/`) || base.startsWith(`${path}/`),
  );
}

/** Whether `path` is one of `filters` or below one (always, with no filters). */
function inside(path: string, filters: string[]): boolean {
  return filters.length === 0 || filters.some((base) => base === "." || path === base || path.startsWith(`${base}/`));
}

function walkers(side: DiffSide) {
  if (side.kind === "commit") return [TREE({ ref: side.oid })];
  if (side.kind === "index") return [STAGE()];
  if (side.kind === "workdir") return [WORKDIR(), STAGE()];
  return [];
}

/** The blob at this path on one side, or null (absent, or a directory). */
async function blobOf(repo: Repo, side: DiffSide, entries: (WalkerEntry | null)[]): Promise<Blob | null> {
  const [entry, stage] = entries;
  if (!entry || (await entry.type()) !== "blob") return null;
  // A file in the working tree that is not in the index is untracked: no side of a diff.
  if (side.kind === "workdir" && (!stage || (await stage.type()) !== "blob")) return null;
  const oid = await entry.oid();
  const mode = await entry.mode();
  const content =
    side.kind === "index"
      ? async () => (await readBlob({ fs: repo.fs, dir: repo.dir, cache: repo.cache, oid })).blob
      : async () => (await entry.content()) ?? new Uint8Array(0);
  return { oid, mode, content };
}

/** Paths where `from` and `to` differ, in path order, each with its blobs. */
async function pairs(repo: Repo, from: DiffSide, to: DiffSide, filters: string[]) {
  const fromTrees = walkers(from);
  const toTrees = walkers(to);
  const found: { path: string; a: Blob | null; b: Blob | null }[] = [];
  await walk({
    fs: repo.fs,
    dir: repo.dir,
    cache: repo.cache,
    trees: [...fromTrees, ...toTrees],
    map: async (path, entries) => {
      if (!worthWalking(path, filters)) return null;
      const fromEntries = entries.slice(0, fromTrees.length);
      const toEntries = entries.slice(fromTrees.length);
      const tracked = (side: DiffSide, list: (WalkerEntry | null)[]) =>
        side.kind !== "workdir" ? list.some(Boolean) : Boolean(list[1]);
      // An untracked directory (the working tree's `.git` among them) holds nothing to compare.
      if (path !== "." && !tracked(from, fromEntries) && !tracked(to, toEntries)) return null;
      // Above a filter (`src` for `src/a.ts`) the walk goes on, but only paths inside one count.
      if (path === "." || !inside(path, filters)) return undefined;
      const [a, b] = await Promise.all([blobOf(repo, from, fromEntries), blobOf(repo, to, toEntries)]);
      if (!a && !b) return undefined;
      if (a && b && a.oid === b.oid && a.mode === b.mode) return undefined;
      found.push({ path, a, b });
      return undefined;
    },
  });
  return found.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);

function hunkRange(start: number, lines: number): string {
  // git names an empty range by the line before it, and leaves out a count of one.
  if (lines === 0) return `${start - 1},0`;
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

function header(path: string, a: Blob | null, b: Blob | null): string[] {
  const lines = [`diff --git a/${path} b/${path}`];
  if (!a && b) lines.push(`new file mode ${octal(b.mode)}`, `index ${zeroOid}..${short(b.oid)}`);
  else if (a && !b) lines.push(`deleted file mode ${octal(a.mode)}`, `index ${short(a.oid)}..${zeroOid}`);
  else if (a && b && a.mode !== b.mode) {
    lines.push(`old mode ${octal(a.mode)}`, `new mode ${octal(b.mode)}`);
    if (a.oid !== b.oid) lines.push(`index ${short(a.oid)}..${short(b.oid)}`);
  } else if (a && b) lines.push(`index ${short(a.oid)}..${short(b.oid)} ${octal(a.mode)}`);
  return lines;
}

async function change(path: string, a: Blob | null, b: Blob | null, content: boolean): Promise<GitFileChange> {
  const status = !a ? "added" : !b ? "deleted" : "modified";
  const base = {
    path,
    status,
    oldOid: a?.oid ?? null,
    newOid: b?.oid ?? null,
    oldMode: a?.mode ?? null,
    newMode: b?.mode ?? null,
  } as const;
  const lines = header(path, a, b);
  if (a && b && a.oid === b.oid) return { ...base, added: 0, removed: 0, patch: `${lines.join("\n")}\n` };
  if (!content) return { ...base, added: null, removed: null, patch: `${lines.join("\n")}\n` };
  const [before, after] = await Promise.all([a ? a.content() : new Uint8Array(0), b ? b.content() : new Uint8Array(0)]);
  const oldName = a ? `a/${path}` : "/dev/null";
  const newName = b ? `b/${path}` : "/dev/null";
  const tooBig = Math.max(before.length, after.length) > gitLimits.diffFileBytesMax;
  if (isBinary(before) || isBinary(after) || tooBig) {
    lines.push(
      tooBig
        ? `Large files ${oldName} and ${newName} differ (not diffed past ${gitLimits.diffFileBytesMax} bytes)`
        : `Binary files ${oldName} and ${newName} differ`,
    );
    return { ...base, added: null, removed: null, patch: `${lines.join("\n")}\n` };
  }
  const decoder = new TextDecoder();
  const patch = structuredPatch(oldName, newName, decoder.decode(before), decoder.decode(after), undefined, undefined, {
    context: gitLimits.diffContextLines,
  });
  let added = 0;
  let removed = 0;
  lines.push(`--- ${oldName}`, `+++ ${newName}`);
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunkRange(hunk.oldStart, hunk.oldLines)} +${hunkRange(hunk.newStart, hunk.newLines)} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      lines.push(line);
    }
  }
  return { ...base, added, removed, patch: `${lines.join("\n")}\n` };
}

/**
 * Every file that differs between `from` and `to` (limited to `filters`, repo-relative
 * paths; none = all). With `content: false` no file is read: only ids and modes compare,
 * `added`/`removed` are null and `patch` holds the header alone.
 */
export async function diffChanges(
  repo: Repo,
  from: DiffSide,
  to: DiffSide,
  options: { filters?: string[]; content?: boolean } = {},
): Promise<GitFileChange[]> {
  const found = await pairs(repo, from, to, options.filters ?? []);
  const changes: GitFileChange[] = [];
  for (const { path, a, b } of found) changes.push(await change(path, a, b, options.content ?? true));
  return changes;
}

/** The unified diff text of these changes, cut at `diffOutputBytesMax` with a line that says so. */
export function diffText(changes: GitFileChange[]): string {
  let text = "";
  for (const item of changes) {
    if (text.length + item.patch.length > gitLimits.diffOutputBytesMax) {
      return `${text}… diff cut at ${gitLimits.diffOutputBytesMax} bytes; narrow it with paths\n`;
    }
    text += item.patch;
  }
  return text;
}
