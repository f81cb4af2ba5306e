/**
 * One `git …` invocation in the shell: the repository found around the working directory,
 * the translation between command-line paths, workspace paths and repository paths, and
 * the output being collected. Shared by the subcommands (gitSubcommands.ts, gitHistory.ts).
 */
import { createGit, defaultAuthor, findGitRoot, type Git, type GitFs, normalizePath } from "../../git/index.ts";
import { relativeTo } from "./gitFormat.ts";
import { workspaceMountPoint } from "./shellFs.ts";

/** A failure git reports as `fatal:` with exit code 128. */
export class GitFatal extends Error {}

/** One `git …` invocation: the repository, the working directory inside it, and output. */
export class GitInvocation {
  stdout = "";
  stderr = "";
  private repository: { git: Git; root: string } | null = null;

  constructor(
    readonly fs: GitFs,
    /** The working directory as a workspace path (`/proj/src`). */
    readonly cwd: string,
    readonly env: Map<string, string>,
    /** `git -c name=value` settings, names lowercased. */
    readonly settings: Map<string, string> = new Map(),
  ) {}

  /** The repository around the working directory; `fatal` when there is none. */
  async repo(): Promise<{ git: Git; root: string }> {
    if (this.repository) return this.repository;
    const root = await findGitRoot(this.fs, this.cwd);
    if (root === null) throw new GitFatal("not a git repository (or any of the parent directories): .git");
    this.repository = { git: this.open(root), root };
    return this.repository;
  }

  open(root: string): Git {
    return createGit(this.fs, { dir: root });
  }

  /**
   * The author named outside `.git/config`: GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL, else
   * `git -c user.name=… -c user.email=…`; a half given is completed from the repository's
   * config, or the default. Undefined when neither names anyone.
   */
  async outsideAuthor(git: Git): Promise<{ name: string; email: string } | undefined> {
    const name = this.env.get("GIT_AUTHOR_NAME") ?? this.settings.get("user.name");
    const email = this.env.get("GIT_AUTHOR_EMAIL") ?? this.settings.get("user.email");
    if (!name && !email) return undefined;
    return {
      name: name ?? (await git.config.get("user.name")) ?? defaultAuthor.name,
      email: email ?? (await git.config.get("user.email")) ?? defaultAuthor.email,
    };
  }

  /** A command-line path → workspace path (`a.ts` in `/proj` → `/proj/a.ts`). */
  workspacePath(arg: string): string {
    if (!arg.startsWith("/")) return normalizePath(`${this.cwd}/${arg}`);
    const shell = normalizePath(arg);
    if (shell === workspaceMountPoint) return "/";
    if (shell.startsWith(`${workspaceMountPoint}/`)) return shell.slice(workspaceMountPoint.length);
    throw new GitFatal(`${arg}: '${arg}' is outside repository`);
  }

  /** A command-line path → repository-relative (`.` for the root). */
  async repoPath(arg: string): Promise<string> {
    const { root } = await this.repo();
    const path = this.workspacePath(arg);
    if (path === root) return ".";
    const prefix = root === "/" ? "/" : `${root}/`;
    if (!path.startsWith(prefix))
      throw new GitFatal(`${arg}: '${arg}' is outside repository at '${this.shellPath(root)}'`);
    return path.slice(prefix.length);
  }

  /** A repository path as git shows it to someone in the working directory. */
  async shown(): Promise<(path: string) => string> {
    const { root } = await this.repo();
    const inside = this.cwd === root ? "" : this.cwd.slice(root === "/" ? 1 : root.length + 1);
    return (path: string) => relativeTo(inside, path);
  }

  shellPath(workspacePath: string): string {
    return workspacePath === "/" ? workspaceMountPoint : `${workspaceMountPoint}${workspacePath}`;
  }

  out(text: string): void {
    this.stdout += text;
  }

  err(text: string): void {
    this.stderr += text;
  }
}

/** Refuses an option the subcommand does not implement, rather than ignoring it. */
export function unknownOption(command: string, option: string): never {
  throw new GitFatal(`git ${command}: option '${option}' is not supported here`);
}
