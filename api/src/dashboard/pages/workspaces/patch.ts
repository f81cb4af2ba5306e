/**
 * The diff service's unified patch (tenants/workspace/vfs/versions/diff.ts `patch`) split
 * into one section per file, each line classed for the page's colours. Only the leading
 * characters of a line decide its class, as `git diff` colours it: the service writes the
 * headers, so there is no other syntax to trust or escape (JSX escapes the text).
 */

export type LineKind = "meta" | "hunk" | "add" | "del" | "context";

export interface PatchLine {
  kind: LineKind;
  text: string;
}

export interface PatchSection {
  /** The path after the change (`b/…` of the `diff --git` line), with its leading slash. */
  path: string;
  lines: PatchLine[];
}

const HEADER = /^diff --git a(\/.*) b(\/.*)$/;

function kindOf(line: string, inHunk: boolean): LineKind {
  if (line.startsWith("@@")) return "hunk";
  if (!inHunk) return "meta";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "del";
  return "context";
}

export function patchSections(patch: string): PatchSection[] {
  const sections: PatchSection[] = [];
  let current: PatchSection | null = null;
  let inHunk = false;
  for (const line of patch.split("\n")) {
    const header = HEADER.exec(line);
    if (header) {
      current = { path: header[2] as string, lines: [{ kind: "meta", text: line }] };
      sections.push(current);
      inHunk = false;
      continue;
    }
    // The text after the last newline: nothing, or a stray line before any header.
    if (!current || (line === "" && !inHunk)) continue;
    const kind = kindOf(line, inHunk);
    if (kind === "hunk") inHunk = true;
    current.lines.push({ kind, text: line });
  }
  // A hunk's last line is followed by the patch's final newline, never an empty context line.
  for (const section of sections) {
    const last = section.lines.at(-1);
    if (last && last.kind === "context" && last.text === "") section.lines.pop();
  }
  return sections;
}
