/**
 * The shell `git` command's output, shaped like real git's where agents parse it: the long
 * and short status (git's layout with `advice.statusHints` off), `log` in its default,
 * `--oneline` and `--format` forms, and `--stat` lines. Pure functions over the values
 * executors/git returns.
 */
import type { GitCommitInfo, GitFileChange, GitSignature, GitStatusEntry } from "../../git/index.ts";

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad2 = (value: number) => String(value).padStart(2, "0");

/** `+0100` for a timezoneOffset of -60 (minutes west of UTC). */
function zone(offsetMinutes: number): string {
  const east = -offsetMinutes;
  const abs = Math.abs(east);
  return `${east < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`;
}

/** git's default date format, in the signer's own zone: `Tue Dec 1 09:05:00 2026 +0100`. */
export function gitDate(signature: GitSignature): string {
  const local = new Date((signature.timestamp - signature.timezoneOffset * 60) * 1000);
  const time = `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())}`;
  const day = `${days[local.getUTCDay()]} ${months[local.getUTCMonth()]} ${local.getUTCDate()}`;
  return `${day} ${time} ${local.getUTCFullYear()} ${zone(signature.timezoneOffset)}`;
}

function body(message: string): string {
  const lines = message.replace(/\n+$/, "").split("\n");
  const start = lines.findIndex((line, index) => index > 0 && line !== "");
  return start === -1 ? "" : `${lines.slice(start).join("\n")}\n`;
}

/** `git log` with no format option. */
export function logMedium(commits: GitCommitInfo[]): string {
  return commits
    .map((c) => {
      const message = c.message.replace(/\n+$/, "").split("\n");
      const merge = c.parents.length > 1 ? `Merge: ${c.parents.map((p) => p.slice(0, 7)).join(" ")}\n` : "";
      const indented = message.map((line) => (line === "" ? "" : `    ${line}`)).join("\n");
      return `commit ${c.oid}\n${merge}Author: ${c.author.name} <${c.author.email}>\nDate:   ${gitDate(c.author)}\n\n${indented}\n`;
    })
    .join("\n");
}

/** `--format=<f>` / `--pretty=format:<f>`, for the placeholders %H %h %P %p %s %b %an %ae %ad %at %cn %ce %ct %n %%. */
export function logFormat(commits: GitCommitInfo[], format: string, separator: "\n" | "terminator"): string {
  const lines = commits.map((c) =>
    format.replace(/%(an|ae|ad|at|cn|ce|ct|H|h|s|b|n|P|p|%)/g, (_, key: string) => {
      switch (key) {
        case "H":
          return c.oid;
        case "h":
          return c.oid.slice(0, 7);
        case "P":
          return c.parents.join(" ");
        case "p":
          return c.parents.map((p) => p.slice(0, 7)).join(" ");
        case "s":
          return c.subject;
        case "b":
          return body(c.message);
        case "an":
          return c.author.name;
        case "ae":
          return c.author.email;
        case "ad":
          return gitDate(c.author);
        case "at":
          return String(c.author.timestamp);
        case "cn":
          return c.committer.name;
        case "ce":
          return c.committer.email;
        case "ct":
          return String(c.committer.timestamp);
        case "n":
          return "\n";
        default:
          return "%";
      }
    }),
  );
  // `--format` (tformat) ends every entry with a newline; `--pretty=format:` only separates them.
  return separator === "terminator" ? lines.map((line) => `${line}\n`).join("") : lines.join("\n");
}

/** A repository path as shown to someone in `cwd` (repository-relative, "" at the root): `../a.txt`. */
export function relativeTo(cwd: string, path: string): string {
  if (cwd === "") return path;
  const from = cwd.split("/");
  const to = path.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => ".."), ...to.slice(common)].join("/");
}

/**
 * Untracked paths as git lists them: a directory holding no tracked file (`tracked`: the
 * index's paths, and any other path status reports) is one entry (`build/`), not every
 * file in it.
 */
export function untrackedPaths(entries: GitStatusEntry[], indexPaths: string[]): string[] {
  const tracked = [...indexPaths, ...entries.filter((e) => e.unstaged !== "untracked").map((e) => e.path)];
  const shown = new Set<string>();
  for (const entry of entries) {
    if (entry.unstaged !== "untracked") continue;
    const parts = entry.path.split("/");
    let display = entry.path;
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join("/");
      if (!tracked.some((path) => path.startsWith(`${dir}/`))) {
        display = `${dir}/`;
        break;
      }
    }
    shown.add(display);
  }
  return [...shown].sort();
}

const labels = { new: "new file:   ", modified: "modified:   ", deleted: "deleted:    " } as const;

export interface StatusView {
  branch: string | null;
  /** HEAD's commit, null before the first. */
  head: string | null;
  entries: GitStatusEntry[];
  /** Untracked paths, already collapsed (untrackedPaths) and made relative. */
  untracked: string[];
  show: (path: string) => string;
}

/**
 * `git status`, long format, as git prints it with `advice.statusHints` off (no
 * "(use …)" lines). `git commit` with nothing to commit prints the same, saying
 * "Initial commit" where status says "No commits yet".
 */
export function statusLong(view: StatusView, committing = false): string {
  const out = [view.branch ? `On branch ${view.branch}` : `HEAD detached at ${view.head?.slice(0, 7)}`];
  if (!view.head) out.push("", committing ? "Initial commit" : "No commits yet", "");
  const staged = view.entries.filter((e) => e.staged);
  const unstaged = view.entries.filter((e) => e.unstaged && e.unstaged !== "untracked");
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push(title, ...lines.map((line) => `\t${line}`), "");
  };
  section(
    "Changes to be committed:",
    staged.map((e) => `${labels[e.staged ?? "modified"]}${view.show(e.path)}`),
  );
  section(
    "Changes not staged for commit:",
    unstaged.map((e) => `${labels[e.unstaged === "deleted" ? "deleted" : "modified"]}${view.show(e.path)}`),
  );
  section("Untracked files:", view.untracked);
  if (staged.length === 0) {
    if (unstaged.length > 0) out.push("no changes added to commit");
    else if (view.untracked.length > 0) out.push("nothing added to commit but untracked files present");
    else out.push(view.head ? "nothing to commit, working tree clean" : "nothing to commit");
  }
  return `${out.join("\n")}\n`;
}

/** `git status -s` / `--porcelain`: `XY path`, untracked as `?? path`. */
export function statusShort(view: StatusView, withBranch: boolean): string {
  const lines: string[] = [];
  if (withBranch)
    lines.push(
      `## ${view.branch ? (view.head ? view.branch : `No commits yet on ${view.branch}`) : "HEAD (no branch)"}`,
    );
  for (const e of view.entries) if (e.code !== "??") lines.push(`${e.code} ${view.show(e.path)}`);
  for (const path of view.untracked) lines.push(`?? ${path}`);
  return lines.map((line) => `${line}\n`).join("");
}

/** ` 2 files changed, 3 insertions(+), 1 deletion(-)`, as git words it. */
export function shortStat(changes: GitFileChange[]): string {
  const added = changes.reduce((sum, c) => sum + (c.added ?? 0), 0);
  const removed = changes.reduce((sum, c) => sum + (c.removed ?? 0), 0);
  const parts = [` ${changes.length} file${changes.length === 1 ? "" : "s"} changed`];
  if (added > 0 || removed === 0) parts.push(`${added} insertion${added === 1 ? "" : "s"}(+)`);
  if (removed > 0 || added === 0) parts.push(`${removed} deletion${removed === 1 ? "" : "s"}(-)`);
  return parts.join(", ");
}

/** `git diff --stat`: one ` path | N ++--` line per file, then the summary. */
export function diffStat(changes: GitFileChange[], show: (path: string) => string): string {
  if (changes.length === 0) return "";
  const names = changes.map((c) => show(c.path));
  const width = Math.max(...names.map((name) => name.length));
  const counts = changes.map((c) => (c.added === null ? "Bin" : String(c.added + (c.removed ?? 0))));
  const countWidth = Math.max(...counts.map((count) => count.length));
  const most = Math.max(...changes.map((c) => (c.added ?? 0) + (c.removed ?? 0)));
  const scale = most > 40 ? 40 / most : 1;
  const lines = changes.map((c, i) => {
    const bar =
      c.added === null
        ? ""
        : ` ${"+".repeat(Math.ceil((c.added ?? 0) * scale))}${"-".repeat(Math.ceil((c.removed ?? 0) * scale))}`;
    return ` ${names[i]?.padEnd(width)} | ${counts[i]?.padStart(countWidth)}${bar}`;
  });
  return `${lines.join("\n")}\n${shortStat(changes)}\n`;
}
