/**
 * grep: lines matching a regular expression in the files under a path, filtered by
 * include/exclude globs on the path relative to it. Binary files (a NUL in the first
 * chunk) are skipped, as grep -I does. Output and bytes scanned are bounded.
 */
import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { workspaceLimits } from "../../limits.ts";
import { contentStream } from "../content.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Store } from "../store.ts";
import { RevisionTree } from "../versions/at.ts";
import { walk, walkAt } from "../walk.ts";
import { read } from "./read.ts";

export interface GrepOptions {
  include?: string[];
  exclude?: string[];
  ignoreCase?: boolean;
  maxMatches?: number;
}

export interface GrepMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export async function grep(
  store: Store,
  pattern: string,
  path: string,
  options: GrepOptions = {},
  at?: number,
): Promise<FsResult<{ matches: GrepMatch[]; truncated: boolean }>> {
  if (pattern.length === 0 || pattern.length > workspaceLimits.grepPatternLengthMax) {
    return fail("EINVAL", `a pattern is 1 to ${workspaceLimits.grepPatternLengthMax} characters`, path);
  }
  // RE2 (re2js) rather than V8's backtracking RegExp: matching is linear in the line's
  // length whatever the pattern, so `(a+)+$` cannot hold the object for seconds. It is the
  // engine just-bash's own grep uses, so both greps read patterns the same way (RE2 syntax:
  // no backreferences or lookaround).
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    return fail("EINVAL", `invalid regular expression: ${(error as Error).message}`, path);
  }
  // At a past revision (versions/) the tree and each file's chunks are read as they were then.
  const tree = at === undefined ? undefined : new RevisionTree(store.sql, at);
  const root = store.resolve(path, true, tree);
  if (!root.ok) return root;
  const maxMatches = Math.min(options.maxMatches ?? workspaceLimits.grepMatchesDefault, workspaceLimits.grepMatchesMax);
  const include = options.include?.length ? picomatch(options.include, { dot: true }) : () => true;
  const exclude = options.exclude?.length ? picomatch(options.exclude, { dot: true }) : () => false;
  const files =
    root.inode.type === "dir"
      ? (tree ? walkAt(store, tree.rev, root.ino, root.path) : walk(store, root.ino, root.path)).filter(
          (e) => e.type === "file",
        )
      : [{ ...root.inode, path: root.path, name: root.name }];
  const base =
    root.inode.type === "dir" ? (root.path === "/" ? 1 : root.path.length + 1) : root.path.lastIndexOf("/") + 1;
  const matches: GrepMatch[] = [];
  let scanned = 0;
  for (const file of files) {
    const relative = file.path.slice(base);
    if (!include(relative) || exclude(relative)) continue;
    scanned += file.size;
    if (scanned > workspaceLimits.grepScanBytesMax) return { ok: true, matches, truncated: true };
    // A past file's chunk list is read as its scan begins; the version keeps its blobs from GC.
    const body = tree ? contentStream(store, tree.chunks(file.ino), 0, file.size) : opened(store, file.path);
    if (!body) continue;
    const done = await scanFile(body, file.path, regex, matches, maxMatches);
    if (done === "full") return { ok: true, matches, truncated: true };
  }
  return { ok: true, matches, truncated: false };
}

/** A live file's bytes, or null when it went away since the walk. */
function opened(store: Store, path: string): ReadableStream<Uint8Array> | null {
  const result = read(store, path);
  return result.ok ? result.body : null;
}

/**
 * Scans one file a chunk at a time, carrying a partial line to the next chunk, so a large
 * file is never read whole. A line longer than `grepLineBytesMax` is matched on its first
 * part only. Skips binary files (a NUL in the first chunk).
 */
async function scanFile(
  body: ReadableStream<Uint8Array>,
  path: string,
  regex: RE2JS,
  matches: GrepMatch[],
  maxMatches: number,
): Promise<"more" | "full"> {
  const decoder = new TextDecoder();
  let carry = "";
  /** The first part of a line too long to keep whole, while the rest of it streams past. */
  let longLine = "";
  let line = 0;
  let first = true;
  const test = (text: string): boolean => {
    line++;
    if (!regex.test(text)) return true;
    if (matches.length === maxMatches) return false;
    matches.push({ path, line, text: text.slice(0, workspaceLimits.grepLineBytesMax) });
    return true;
  };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (first && value.includes(0)) return "more";
      first = false;
      const lines = (carry + decoder.decode(value, { stream: true })).split("\n");
      // The unfinished last line waits for the next chunk, but only its first part is kept.
      carry = lines.pop() ?? "";
      if (carry.length > workspaceLimits.grepLineBytesMax) {
        longLine ||= carry.slice(0, workspaceLimits.grepLineBytesMax);
        carry = "";
      }
      for (const text of lines) {
        const whole = longLine ? longLine : text;
        longLine = "";
        if (!test(whole)) return "full";
      }
    }
    carry += decoder.decode();
    const last = longLine || carry;
    if (last !== "" && !test(last)) return "full";
    return "more";
  } finally {
    await reader.cancel().catch(() => {});
  }
}
