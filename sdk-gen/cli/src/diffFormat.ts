/**
 * How `cubicle diff` prints: the changed paths one a line (`git diff --name-status` style,
 * with sizes), or the server's unified patch; coloured only when the output is a terminal
 * that takes colour, so a pipe or a file gets the plain text `git apply` and `grep` expect.
 */
import { styleText } from "node:util";
import type { Diff } from "@cubicle/sdk";
import { formatBytes } from "./output.ts";

type Style = Parameters<typeof styleText>[0];
export type Paint = (style: Style, text: string) => string;

/**
 * Colours when `stream` is a terminal that takes them (`hasColors` reads NO_COLOR,
 * FORCE_COLOR and TERM), else leaves the text alone. `validateStream: false` because that
 * decision is made here once: Node 24's own check would look at stdout even when the text
 * goes elsewhere.
 */
export function painterFor(stream: NodeJS.WriteStream): Paint {
  const colour = Boolean(stream.isTTY) && (stream.hasColors?.() ?? false);
  return colour ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}

export const plain: Paint = (_style, text) => text;

type Entry = Diff["entries"][number];

const LETTER: Record<Entry["status"], { letter: string; style: Style }> = {
  added: { letter: "A", style: "green" },
  modified: { letter: "M", style: "yellow" },
  deleted: { letter: "D", style: "red" },
  renamed: { letter: "R", style: "cyan" },
};

/** One line per changed path: its status letter, the path (`old → new` for a rename) and its size(s). */
export function nameStatus(diff: Diff, paint: Paint): string {
  return diff.entries
    .map((entry) => {
      const { letter, style } = LETTER[entry.status];
      const path = entry.previousPath === undefined ? entry.path : `${entry.previousPath} → ${entry.path}`;
      const kind = (entry.after ?? entry.before)?.type === "dir" ? "/" : "";
      return `${paint(style, letter)}  ${path}${kind}${sizes(entry)}${modes(entry)}\n`;
    })
    .join("");
}

/** A mode that changed (`chmod`), as `ls` people read it: the only change a directory shows. */
function modes(entry: Entry): string {
  const [before, after] = [entry.before?.mode, entry.after?.mode];
  if (before === undefined || after === undefined || before === after) return "";
  const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, "0");
  return `  (mode ${octal(before)} → ${octal(after)})`;
}

function sizes(entry: Entry): string {
  const size = (side: Entry["before"]) => (side && side.type !== "dir" ? formatBytes(side.size) : null);
  const [before, after] = [size(entry.before), size(entry.after)];
  if (entry.status === "added") return after ? `  (${after})` : "";
  if (entry.status === "deleted") return before ? `  (${before})` : "";
  if (before && after && before !== after) return `  (${before} → ${after})`;
  return after ? `  (${after})` : "";
}

/**
 * The unified patch with git's colours: file headers bold, hunk headers cyan, removed lines
 * red, added lines green. Only the line's first characters decide, as in `git diff`: a
 * context line that starts with a space stays plain whatever it holds.
 */
export function colourPatch(patch: string, paint: Paint): string {
  if (paint === plain) return patch;
  return patch
    .split("\n")
    .map((line) => {
      if (line.startsWith("diff --git ") || line.startsWith("--- ") || line.startsWith("+++ ")) {
        return paint("bold", line);
      }
      if (line.startsWith("rename ") || line.startsWith("Binary files ")) return paint("bold", line);
      if (line.startsWith("@@")) return paint("cyan", line);
      if (line.startsWith("+")) return paint("green", line);
      if (line.startsWith("-")) return paint("red", line);
      return line;
    })
    .join("\n");
}

/** The counts a person reads first: "3 changed: 1 added, 1 modified, 1 deleted". */
export function summary(diff: Diff): string {
  const counts = new Map<string, number>();
  for (const entry of diff.entries) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
  const parts = (["added", "modified", "deleted", "renamed"] as const)
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${status}`);
  const total = diff.entries.length;
  if (total === 0) return `no changes from revision ${diff.from} to revision ${diff.to}`;
  return `${total} path${total === 1 ? "" : "s"} changed from revision ${diff.from} to revision ${diff.to}: ${parts.join(", ")}`;
}
