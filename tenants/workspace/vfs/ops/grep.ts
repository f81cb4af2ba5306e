/**
 * grep: lines matching a regular expression in the files under a path, filtered by
 * include/exclude globs on the path relative to it. Binary files (a NUL in the first
 * chunk) are skipped, as grep -I does. Output and bytes scanned are bounded.
 */
import picomatch from "picomatch";
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Store } from "../store.ts";
import { walk } from "../walk.ts";
import { readBytes } from "./read.ts";

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
): Promise<FsResult<{ matches: GrepMatch[]; truncated: boolean }>> {
  if (pattern.length === 0 || pattern.length > workspaceLimits.grepPatternLengthMax) {
    return fail("EINVAL", `a pattern is 1 to ${workspaceLimits.grepPatternLengthMax} characters`, path);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, options.ignoreCase ? "i" : "");
  } catch (error) {
    return fail("EINVAL", `invalid regular expression: ${(error as Error).message}`, path);
  }
  const root = store.resolve(path, true);
  if (!root.ok) return root;
  const maxMatches = Math.min(options.maxMatches ?? workspaceLimits.grepMatchesDefault, workspaceLimits.grepMatchesMax);
  const include = options.include?.length ? picomatch(options.include, { dot: true }) : () => true;
  const exclude = options.exclude?.length ? picomatch(options.exclude, { dot: true }) : () => false;
  const files =
    root.inode.type === "dir"
      ? walk(store, root.ino, root.path).filter((e) => e.type === "file")
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
    const content = await readBytes(store, file.path);
    if (!content.ok || content.bytes.subarray(0, workspaceLimits.chunkBytes).includes(0)) continue;
    const lines = new TextDecoder().decode(content.bytes).split("\n");
    if (lines.at(-1) === "") lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i] as string;
      if (!regex.test(text)) continue;
      if (matches.length === maxMatches) return { ok: true, matches, truncated: true };
      matches.push({ path: file.path, line: i + 1, text: text.slice(0, workspaceLimits.grepLineBytesMax) });
    }
  }
  return { ok: true, matches, truncated: false };
}
