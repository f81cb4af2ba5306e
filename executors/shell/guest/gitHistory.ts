/**
 * `git log` and `git diff` in the shell: option parsing and output over executors/git.
 */
import { diffText, type GitDiffOptions } from "../../git/index.ts";
import { diffStat, logFormat, logMedium } from "./gitFormat.ts";
import { GitFatal, type GitInvocation, unknownOption } from "./gitInvocation.ts";

type Subcommand = (invocation: GitInvocation, args: string[]) => Promise<number>;

function count(value: string | undefined, option: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new GitFatal(`'${value}': not a number for ${option}`);
  return parsed;
}

export const log: Subcommand = async (inv, args) => {
  let depth: number | undefined;
  let format: { text: string; separator: "\n" | "terminator" } | null = null;
  let ref: string | undefined;
  let reverse = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--oneline" || arg === "--pretty=oneline") format = { text: "%h %s", separator: "terminator" };
    else if (arg === "-n" || arg === "--max-count") depth = count(args[++i], arg);
    else if (/^-n\d+$/.test(arg) || /^-\d+$/.test(arg)) depth = count(arg.replace(/^-n?/, ""), arg);
    else if (arg.startsWith("--max-count=")) depth = count(arg.slice(12), "--max-count");
    else if (arg.startsWith("--format=") || arg.startsWith("--pretty=tformat:")) {
      format = { text: arg.slice(arg.indexOf(arg.startsWith("--format=") ? "=" : ":") + 1), separator: "terminator" };
    } else if (arg.startsWith("--pretty=format:")) format = { text: arg.slice(16), separator: "\n" };
    else if (arg === "--reverse") reverse = true;
    else if (arg === "--no-decorate" || arg === "--decorate" || arg === "--no-color" || arg === "--color=never")
      continue;
    else if (arg.startsWith("-")) unknownOption("log", arg);
    else if (ref === undefined) ref = arg;
    else throw new GitFatal("one revision at most here (no ranges or paths)");
  }
  const { git } = await inv.repo();
  const commits = await git.log({ ...(depth !== undefined ? { depth } : {}), ...(ref ? { ref } : {}) });
  if (reverse) commits.reverse();
  if (depth === 0) return 0;
  inv.out(format ? logFormat(commits, format.text, format.separator) : logMedium(commits));
  return 0;
};

type DiffOutput = "patch" | "stat" | "name-only" | "name-status" | "numstat";

function diffArgs(args: string[]) {
  let output: DiffOutput = "patch";
  let cached = false;
  let quiet = false;
  let exitCode = false;
  const revisions: string[] = [];
  const paths: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes) paths.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "--cached" || arg === "--staged") cached = true;
    else if (arg === "--stat" || arg === "--name-only" || arg === "--name-status" || arg === "--numstat") {
      output = arg.slice(2) as DiffOutput;
    } else if (arg === "--exit-code") exitCode = true;
    else if (arg === "--quiet") quiet = exitCode = true;
    else if (arg === "--no-color" || arg === "--color=never" || arg === "--no-ext-diff") continue;
    else if (arg.startsWith("-")) unknownOption("diff", arg);
    else if (arg.includes("..")) revisions.push(...arg.split(/\.\.\.?/).map((side) => side || "HEAD"));
    else revisions.push(arg);
  }
  return { output, cached, quiet, exitCode, revisions, paths };
}

export const diff: Subcommand = async (inv, args) => {
  const parsed = diffArgs(args);
  const { git } = await inv.repo();
  // Without `--`, git takes a word that names no commit but names a file as a path.
  const revisions: string[] = [];
  for (const word of parsed.revisions) {
    const isRevision = await git.resolve(word).then(
      () => true,
      () => false,
    );
    if (isRevision && parsed.paths.length === 0) revisions.push(word);
    else if (await inv.fs.promises.lstat(inv.workspacePath(word)).catch(() => null)) parsed.paths.push(word);
    else throw new GitFatal(`ambiguous argument '${word}': unknown revision or path not in the working tree.`);
  }
  if (revisions.length > 2) throw new GitFatal("at most two revisions here");
  const [from, to] = revisions;
  const paths = await Promise.all(parsed.paths.map((path) => inv.repoPath(path)));
  const options: GitDiffOptions = { cached: parsed.cached, paths, ...(from ? { from } : {}), ...(to ? { to } : {}) };
  const changes = await git.changes(options);
  const show = await inv.shown();
  if (!parsed.quiet) {
    if (parsed.output === "patch") inv.out(diffText(changes));
    else if (parsed.output === "stat") inv.out(diffStat(changes, show));
    else if (parsed.output === "name-only") inv.out(changes.map((c) => `${c.path}\n`).join(""));
    else if (parsed.output === "name-status") {
      inv.out(changes.map((c) => `${c.status[0]?.toUpperCase()}\t${c.path}\n`).join(""));
    } else inv.out(changes.map((c) => `${c.added ?? "-"}\t${c.removed ?? "-"}\t${c.path}\n`).join(""));
  }
  return parsed.exitCode && changes.length > 0 ? 1 : 0;
};
