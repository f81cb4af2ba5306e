/**
 * `createGit(fs, options)`: git over any filesystem of the `GitFs` shape, built on
 * isomorphic-git. See index.ts for the API as callers see it, and README.md for what is
 * left out and why.
 */
import {
  add,
  branch,
  checkout,
  commit,
  currentBranch,
  getConfig,
  init,
  listBranches,
  listFiles,
  log,
  remove,
  resolveRef,
  setConfig,
  statusMatrix,
} from "isomorphic-git";
import { branchApi } from "./branches.ts";
import { type DiffSide, diffChanges, diffText, type GitFileChange } from "./diff.ts";
import { GitError } from "./errors.ts";
import { type GitFs, type GitRepo, normalizePath } from "./gitFs.ts";
import { gitLimits } from "./limits.ts";
import { withRacyGitCheck } from "./racyGit.ts";
import { resolveRevision } from "./revisions.ts";
import { type GitStatusEntry, statusEntries } from "./status.ts";

export interface GitPerson {
  name: string;
  email: string;
}

export interface GitOptions {
  /** The working tree's root as `fs` sees it; the repository is `<dir>/.git`. Default `/`. */
  dir?: string;
  /** Who commits when neither the call nor `.git/config` (user.name, user.email) says. Default Cubicle Agent. */
  author?: GitPerson | string;
  /** The branch `init` starts on. Default `main`. */
  defaultBranch?: string;
}

export interface GitSignature extends GitPerson {
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes west of UTC, as JavaScript's `getTimezoneOffset` (so +0100 is -60). */
  timezoneOffset: number;
}

export interface GitCommitInfo {
  oid: string;
  /** The whole message; `subject` is its first line. */
  message: string;
  subject: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
}

export interface GitDiffOptions {
  /** A commit (`HEAD`, `main`, `HEAD~1`, an id). Absent: the index (or HEAD with `cached`). */
  from?: string;
  /** A second commit; only with `from`. Absent: the working tree (or the index with `cached`). */
  to?: string;
  /** Compare with the index instead of the working tree, as `git diff --cached`. */
  cached?: boolean;
  /** Repository-relative paths (files or directories) to limit the diff to. */
  paths?: string[];
}

export const defaultAuthor: GitPerson = { name: "Cubicle Agent", email: "agent@cubicle.dev" };

/** `Name <email>` → `{ name, email }`. */
export function parsePerson(text: string): GitPerson {
  const match = /^\s*([^<>]*?)\s*<([^<>]*)>\s*$/.exec(text);
  if (!match?.[1] || match[2] === undefined) {
    throw new GitError("InvalidAuthor", `--author '${text}' is not 'Name <email>'`);
  }
  return { name: match[1], email: match[2] };
}

/** git's message cleanup: trailing whitespace off, one final newline. */
function cleanMessage(message: string): string {
  const text = message
    .replace(/[ \t]+$/gm, "")
    .replace(/^\n+/, "")
    .trimEnd();
  if (text === "") throw new GitError("EmptyMessage", "Aborting commit due to empty commit message.");
  return `${text}\n`;
}

/** A repository-relative path: `./src/` → `src`, `/`-separated, `.` for the root. */
function repoPath(path: string): string {
  const normalized = normalizePath(path).slice(1);
  return normalized === "" ? "." : normalized;
}

/** Walks up from `from` to the nearest directory holding `.git`; null when there is none. */
export async function findGitRoot(fs: GitFs, from: string): Promise<string | null> {
  let dir = normalizePath(from);
  for (let depth = 0; depth < gitLimits.rootSearchDepthMax; depth++) {
    const found = await fs.promises.stat(`${dir === "/" ? "" : dir}/.git`).catch(() => null);
    if (found?.isDirectory()) return dir;
    if (dir === "/") return null;
    dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
  }
  return null;
}

export function createGit(filesystem: GitFs, options: GitOptions = {}) {
  const root = normalizePath(options.dir ?? "/");
  const repo: GitRepo = { fs: withRacyGitCheck(filesystem, root), dir: root, cache: {} };
  const { fs, dir, cache } = repo;
  const fallbackAuthor =
    typeof options.author === "string" ? parsePerson(options.author) : (options.author ?? defaultAuthor);

  async function exists(): Promise<boolean> {
    return (await fs.promises.stat(`${dir}/.git`).catch(() => null))?.isDirectory() ?? false;
  }

  async function requireRepo(): Promise<void> {
    if (!(await exists())) throw new GitError("NotAGitRepository", `not a git repository: ${dir}`);
  }

  /** HEAD's commit, or null before the first commit. */
  async function headOid(): Promise<string | null> {
    return resolveRef({ fs, dir, ref: "HEAD" }).catch(() => null);
  }

  async function configuredAuthor(): Promise<GitPerson> {
    const [name, email] = await Promise.all([
      getConfig({ fs, dir, path: "user.name" }),
      getConfig({ fs, dir, path: "user.email" }),
    ]);
    return {
      name: typeof name === "string" ? name : fallbackAuthor.name,
      email: typeof email === "string" ? email : fallbackAuthor.email,
    };
  }

  async function side(revision: string | undefined, otherwise: DiffSide): Promise<DiffSide> {
    if (revision === undefined) return otherwise;
    return { kind: "commit", oid: await resolveRevision(repo, revision) };
  }

  /** The two sides `diff` and `changes` compare, as the git command line picks them. */
  async function diffSides({ from, to, cached }: GitDiffOptions): Promise<[DiffSide, DiffSide]> {
    await requireRepo();
    if (to !== undefined) return [await side(from, { kind: "empty" }), await side(to, { kind: "empty" })];
    const head = await headOid();
    const base: DiffSide = cached ? (head ? { kind: "commit", oid: head } : { kind: "empty" }) : { kind: "index" };
    return [await side(from, base), cached ? { kind: "index" } : { kind: "workdir" }];
  }

  const api = {
    /** The working tree's root, as `fs` sees it. */
    dir,

    /** Creates `<dir>/.git` on `defaultBranch`; an existing repository is left as it is (`created: false`). */
    async init(): Promise<{ created: boolean }> {
      if (await exists()) return { created: false };
      await init({ fs, dir, defaultBranch: options.defaultBranch ?? "main" });
      // isomorphic-git writes a config for case-insensitive filesystems without modes or
      // symlinks; the workspace keeps all three, as git on Linux would record them.
      for (const [path, value] of [
        ["core.filemode", true],
        ["core.symlinks", true],
        ["core.ignorecase", false],
      ] as const) {
        await setConfig({ fs, dir, path, value });
      }
      return { created: true };
    },

    /**
     * Stages `paths` (repository-relative; `.` for everything) as `git add -A` would:
     * new and modified files are added, deleted ones removed from the index. Ignored
     * files are left out. Throws `PathspecNoMatch` for a path that matches nothing.
     */
    async add(paths: string | string[]): Promise<{ added: string[]; removed: string[] }> {
      await requireRepo();
      const filepaths = (Array.isArray(paths) ? paths : [paths]).map(repoPath);
      const rows = (await statusMatrix({ fs, dir, cache, filepaths })) as [string, number, number, number][];
      for (const path of filepaths) {
        const matched = path === "." || rows.some(([row]) => row === path || row.startsWith(`${path}/`));
        if (!matched) throw new GitError("PathspecNoMatch", `pathspec '${path}' did not match any files`);
      }
      const added: string[] = [];
      const removed: string[] = [];
      for (const entry of statusEntries(rows)) {
        if (entry.unstaged === "deleted") removed.push(entry.path);
        else if (entry.unstaged) added.push(entry.path);
      }
      if (added.length > 0) await add({ fs, dir, cache, filepath: added });
      for (const filepath of removed) await remove({ fs, dir, cache, filepath });
      return { added, removed };
    },

    /**
     * Records the index as a new commit on the current branch (or detached HEAD). The
     * author is `author`, else `.git/config`'s user.name/user.email, else the default;
     * the committer is the same person, both timed now. Throws `NothingToCommit` when the
     * index equals HEAD (unless `allowEmpty`).
     */
    async commit(input: { message: string; author?: GitPerson | string; allowEmpty?: boolean }) {
      await requireRepo();
      const message = cleanMessage(input.message);
      const author =
        input.author === undefined
          ? await configuredAuthor()
          : typeof input.author === "string"
            ? parsePerson(input.author)
            : input.author;
      const parent = await headOid();
      const staged = await diffChanges(
        repo,
        parent ? { kind: "commit", oid: parent } : { kind: "empty" },
        { kind: "index" },
        { content: false },
      );
      if (staged.length === 0 && !input.allowEmpty) throw new GitError("NothingToCommit", "nothing to commit");
      const oid = await commit({ fs, dir, cache, message, author });
      const branchName = (await currentBranch({ fs, dir })) ?? null;
      return { oid, branch: branchName, root: parent === null, paths: staged.map((change) => change.path) };
    },

    /** Paths whose index or working tree differs (untracked ones included, ignored ones not), in path order. */
    async status(input: { paths?: string[] } = {}): Promise<GitStatusEntry[]> {
      await requireRepo();
      const filepaths = input.paths?.map(repoPath) ?? ["."];
      return statusEntries((await statusMatrix({ fs, dir, cache, filepaths })) as [string, number, number, number][]);
    },

    /** The paths the index holds (tracked files), in path order. */
    async listFiles(): Promise<string[]> {
      await requireRepo();
      return listFiles({ fs, dir, cache });
    },

    /** Commits reachable from `ref` (default HEAD), newest first, at most `depth`. Throws `NoCommits` on an unborn branch. */
    async log(input: { depth?: number; ref?: string } = {}): Promise<GitCommitInfo[]> {
      await requireRepo();
      const depth = Math.min(input.depth ?? gitLimits.logDepthDefault, gitLimits.logDepthMax);
      if (input.ref === undefined && (await headOid()) === null) {
        throw new GitError(
          "NoCommits",
          `your current branch '${(await currentBranch({ fs, dir })) ?? "HEAD"}' does not have any commits yet`,
        );
      }
      const ref = input.ref === undefined ? "HEAD" : await resolveRevision(repo, input.ref);
      const commits = await log({ fs, dir, cache, ref, depth });
      return commits.map(({ oid, commit: c }) => ({
        oid,
        message: c.message,
        subject: c.message.split("\n", 1)[0] ?? "",
        parents: c.parent,
        author: c.author,
        committer: c.committer,
      }));
    },

    /** The unified diff, as `git diff` with the same choices of sides (see GitDiffOptions). */
    async diff(input: GitDiffOptions = {}): Promise<string> {
      const [from, to] = await diffSides(input);
      return diffText(await diffChanges(repo, from, to, { filters: input.paths?.map(repoPath) }));
    },

    /** The same comparison per file, with line counts (`git diff --numstat`) and each file's patch. */
    async changes(input: GitDiffOptions = {}): Promise<GitFileChange[]> {
      const [from, to] = await diffSides(input);
      return diffChanges(repo, from, to, { filters: input.paths?.map(repoPath) });
    },

    branch: branchApi(repo, requireRepo, headOid),

    /**
     * Switches to branch `ref` (or a commit, detaching HEAD), updating the working tree;
     * refuses (isomorphic-git's CheckoutConflictError) when that would overwrite local
     * changes. With `create`, makes branch `ref` at HEAD and switches to it, files untouched.
     */
    async checkout(input: { ref: string; create?: boolean }): Promise<{ branch: string | null; oid: string | null }> {
      await requireRepo();
      if (input.create) {
        if ((await listBranches({ fs, dir })).includes(input.ref)) {
          throw new GitError("BranchExists", `a branch named '${input.ref}' already exists`);
        }
        await branch({ fs, dir, ref: input.ref, checkout: true });
        return { branch: input.ref, oid: await headOid() };
      }
      const isBranch = (await listBranches({ fs, dir })).includes(input.ref);
      const ref = isBranch ? input.ref : await resolveRevision(repo, input.ref);
      await checkout({ fs, dir, cache, ref });
      return { branch: isBranch ? input.ref : null, oid: await headOid() };
    },

    /** The commit id a revision names (`HEAD`, `main~2`, `abc1234`); throws `UnknownRevision`. */
    async resolve(revision = "HEAD"): Promise<string> {
      await requireRepo();
      if (revision === "HEAD" && (await headOid()) === null) {
        throw new GitError("NoCommits", "ambiguous argument 'HEAD': unknown revision or path not in the working tree.");
      }
      return resolveRevision(repo, revision);
    },

    config: {
      /** A value from `.git/config` (`user.name`), or undefined. */
      async get(path: string): Promise<string | undefined> {
        await requireRepo();
        const value = await getConfig({ fs, dir, path });
        return value === undefined || value === null ? undefined : String(value);
      },
      async set(path: string, value: string): Promise<void> {
        await requireRepo();
        await setConfig({ fs, dir, path, value });
      },
    },
  };
  return api;
}

/** What `createGit` returns. */
export type Git = ReturnType<typeof createGit>;
