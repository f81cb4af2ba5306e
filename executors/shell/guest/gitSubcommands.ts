/**
 * The `git` subcommands the shell offers, each parsing its own options as git does (the
 * subset agents use; an unknown option is refused rather than ignored) and printing what
 * git prints. `log` and `diff` are in gitHistory.ts.
 */
import { createGit } from "../../git/index.ts";
import { shortStat, statusLong, statusShort, untrackedPaths } from "./gitFormat.ts";
import { diff, log } from "./gitHistory.ts";
import { GitFatal, type GitInvocation, unknownOption } from "./gitInvocation.ts";

export type Subcommand = (invocation: GitInvocation, args: string[]) => Promise<number>;

/** `-am msg` → `-a -m msg`: git's bundled single-letter flags. */
function splitFlags(args: string[], valued: string): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (/^-[a-zA-Z]{2,}$/.test(arg) && [...arg.slice(1, -1)].every((flag) => !valued.includes(flag))) {
      out.push(...[...arg.slice(1)].map((flag) => `-${flag}`));
    } else out.push(arg);
  }
  return out;
}

const init: Subcommand = async (inv, args) => {
  let target = ".";
  let quiet = false;
  let defaultBranch: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "-b" || arg === "--initial-branch") defaultBranch = args[++i];
    else if (arg.startsWith("--initial-branch=")) defaultBranch = arg.slice(17);
    else if (arg.startsWith("-")) unknownOption("init", arg);
    else target = arg;
  }
  const root = inv.workspacePath(target);
  await inv.fs.promises.mkdir(root, { recursive: true });
  const { created } = await createGit(inv.fs, { dir: root, ...(defaultBranch ? { defaultBranch } : {}) }).init();
  const gitdir = `${inv.shellPath(root).replace(/\/$/, "")}/.git/`;
  if (!quiet) inv.out(`${created ? "Initialized empty" : "Reinitialized existing"} Git repository in ${gitdir}\n`);
  return 0;
};

const add: Subcommand = async (inv, args) => {
  const paths: string[] = [];
  for (const arg of args) {
    if (arg === "-A" || arg === "--all") paths.push(".");
    else if (arg === "--" || arg === "-v" || arg === "--verbose") continue;
    else if (arg.startsWith("-")) unknownOption("add", arg);
    else paths.push(await inv.repoPath(arg));
  }
  if (paths.length === 0) {
    inv.err("Nothing specified, nothing added.\n");
    return 0;
  }
  await (await inv.repo()).git.add(paths);
  return 0;
};

const commit: Subcommand = async (inv, argv) => {
  const args = splitFlags(argv, "m");
  const messages: string[] = [];
  let author: string | undefined;
  let all = false;
  let allowEmpty = false;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-m" || arg === "--message") messages.push(args[++i] ?? "");
    else if (arg.startsWith("--message=")) messages.push(arg.slice(10));
    else if (arg.startsWith("-m") && arg.length > 2) messages.push(arg.slice(2));
    else if (arg === "--author") author = args[++i];
    else if (arg.startsWith("--author=")) author = arg.slice(9);
    else if (arg === "-a" || arg === "--all") all = true;
    else if (arg === "--allow-empty") allowEmpty = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "--no-verify" || arg === "-n") continue;
    else unknownOption("commit", arg);
  }
  if (messages.length === 0) throw new GitFatal("a message is required here: git commit -m <message> (no editor)");
  const { git } = await inv.repo();
  if (all) {
    const tracked = (await git.status()).filter((e) => e.unstaged === "modified" || e.unstaged === "deleted");
    if (tracked.length > 0) await git.add(tracked.map((e) => e.path));
  }
  let result: Awaited<ReturnType<typeof git.commit>>;
  try {
    result = await git.commit({
      message: messages.join("\n\n"),
      author: author ?? (await inv.outsideAuthor(git)),
      allowEmpty,
    });
  } catch (error) {
    if ((error as { code?: string }).code !== "NothingToCommit") throw error;
    inv.out(await statusText(inv, { committing: true }));
    return 1;
  }
  if (quiet) return 0;
  const [first] = await git.log({ depth: 1 });
  const where = `${result.branch ?? "detached HEAD"}${result.root ? " (root-commit)" : ""}`;
  inv.out(`[${where} ${result.oid.slice(0, 7)}] ${first?.subject ?? ""}\n`);
  const changes = await git.changes({ ...(first?.parents[0] ? { from: first.parents[0] } : {}), to: result.oid });
  inv.out(`${shortStat(changes)}\n`);
  for (const change of changes) {
    if (change.status === "added") inv.out(` create mode ${change.newMode?.toString(8)} ${change.path}\n`);
    if (change.status === "deleted") inv.out(` delete mode ${change.oldMode?.toString(8)} ${change.path}\n`);
  }
  return 0;
};

async function statusText(
  inv: GitInvocation,
  form: { short?: boolean; porcelain?: boolean; withBranch?: boolean; committing?: boolean },
): Promise<string> {
  const { git } = await inv.repo();
  const [entries, indexPaths, branch, head] = await Promise.all([
    git.status(),
    git.listFiles(),
    git.branch.current(),
    git.resolve().catch(() => null),
  ]);
  const show = form.porcelain ? (path: string) => path : await inv.shown();
  const untracked = untrackedPaths(entries, indexPaths).map(show);
  const view = { branch, head, entries, untracked, show };
  return form.short || form.porcelain ? statusShort(view, form.withBranch ?? false) : statusLong(view, form.committing);
}

const status: Subcommand = async (inv, argv) => {
  const args = splitFlags(argv, "");
  let short = false;
  let porcelain = false;
  let withBranch = false;
  for (const arg of args) {
    if (arg === "-s" || arg === "--short") short = true;
    else if (arg === "--porcelain" || arg === "--porcelain=v1") porcelain = true;
    else if (arg === "-b" || arg === "--branch") withBranch = true;
    else if (arg === "--long" || arg === "-u" || arg === "--untracked-files=all") continue;
    else unknownOption("status", arg);
  }
  inv.out(await statusText(inv, { short, porcelain, withBranch }));
  return 0;
};

const branch: Subcommand = async (inv, argv) => {
  const { git } = await inv.repo();
  const args = argv.filter((arg) => arg !== "--list" && arg !== "-l" && arg !== "-a");
  const [first, second] = args;
  if (first === "--show-current") {
    inv.out(`${(await git.branch.current()) ?? ""}\n`);
    return 0;
  }
  if (first === "-d" || first === "-D" || first === "--delete") {
    if (!second) throw new GitFatal("branch name required");
    const { oid } = await git.branch.delete(second, { force: first === "-D" });
    inv.out(`Deleted branch ${second} (was ${oid.slice(0, 7)}).\n`);
    return 0;
  }
  if (first?.startsWith("-")) unknownOption("branch", first);
  if (first) {
    await git.branch.create(first, second ? { start: second } : {});
    return 0;
  }
  const current = await git.branch.current();
  if (current === null) inv.out(`* (HEAD detached at ${(await git.resolve()).slice(0, 7)})\n`);
  for (const name of await git.branch.list()) inv.out(`${name === current ? "*" : " "} ${name}\n`);
  return 0;
};

const checkoutUsage =
  "only `git checkout [-q] [-b <new-branch>] <branch|commit>` is supported here (not restoring paths)";

const checkout: Subcommand = async (inv, args) => {
  let create = false;
  let quiet = false;
  const words: string[] = [];
  for (const arg of args) {
    if (arg === "-b" || arg === "-c") create = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg.startsWith("-")) throw new GitFatal(checkoutUsage);
    else words.push(arg);
  }
  const [ref, start] = words;
  if (!ref || words.length > (create ? 2 : 1)) throw new GitFatal(checkoutUsage);
  const { git } = await inv.repo();
  if (create && start) {
    await git.branch.create(ref, { start });
    await git.checkout({ ref });
  } else await git.checkout({ ref, create });
  if (quiet) return 0;
  const current = await git.branch.current();
  // git says where it went on stderr.
  if (create) inv.err(`Switched to a new branch '${ref}'\n`);
  else if (current) inv.err(`Switched to branch '${current}'\n`);
  else inv.err(`HEAD is now at ${(await git.resolve()).slice(0, 7)}\n`);
  return 0;
};

const revParse: Subcommand = async (inv, args) => {
  const { git, root } = await inv.repo();
  let short = false;
  for (const arg of args) {
    if (arg === "--short") short = true;
    else if (arg === "--show-toplevel") inv.out(`${inv.shellPath(root)}\n`);
    else if (arg === "--git-dir")
      inv.out(inv.cwd === root ? ".git\n" : `${inv.shellPath(root).replace(/\/$/, "")}/.git\n`);
    else if (arg === "--is-inside-work-tree") inv.out("true\n");
    else if (arg === "--abbrev-ref") short = false;
    else if (arg.startsWith("-")) unknownOption("rev-parse", arg);
    else if (args.includes("--abbrev-ref"))
      inv.out(`${arg === "HEAD" ? ((await git.branch.current()) ?? "HEAD") : arg}\n`);
    else {
      const oid = await git.resolve(arg);
      inv.out(`${short ? oid.slice(0, 7) : oid}\n`);
    }
  }
  return 0;
};

const config: Subcommand = async (inv, args) => {
  const global = args.includes("--global");
  const rest = args.filter((arg) => arg !== "--global" && arg !== "--local" && arg !== "--get");
  const [name, value] = rest;
  if (!name || name.startsWith("-"))
    throw new GitFatal("only `git config [--global] <name> [<value>]` is supported here");
  const repo = await inv.repo().catch(() => null);
  if (!repo) {
    throw new GitFatal(
      `no global config here (HOME does not outlive a run); run \`git config ${name} …\` inside a repository`,
    );
  }
  if (global) inv.err("warning: no global config here; writing to this repository's .git/config\n");
  if (value === undefined) {
    const current = await repo.git.config.get(name);
    if (current === undefined) return 1;
    inv.out(`${current}\n`);
    return 0;
  }
  await repo.git.config.set(name, value);
  return 0;
};

export const subcommands: Record<string, Subcommand> = {
  init,
  add,
  commit,
  status,
  log,
  diff,
  branch,
  checkout,
  "rev-parse": revParse,
  config,
};
