/**
 * The shell's `git` command: executors/git (isomorphic-git) over the run's workspace
 * capability, with git's command line, output and exit codes for the subcommands agents
 * use (gitSubcommands.ts). Repositories live in the workspace: the command finds one by
 * walking up from the working directory to a `.git`, as git does, and works only under
 * `/workspace` (the scratch filesystem is gone when the run ends, so a repository there
 * would be too). Paths on the command line are relative to the working directory;
 * failures print `fatal: …` and exit 128, as git's do.
 */
import { version } from "isomorphic-git";
import { type Command, defineCommand } from "just-bash";
import type { WorkspaceFsApi } from "../../contract.ts";
import { GitError, gitFsFromCapability, normalizePath } from "../../git/index.ts";
import { GitFatal, GitInvocation } from "./gitInvocation.ts";
import { subcommands } from "./gitSubcommands.ts";
import { workspaceMountPoint } from "./shellFs.ts";

const usage = (names: string[]) =>
  `usage: git <command> [<args>]\n\nCommands supported here: ${names.join(", ")}\n` +
  "No remotes: clone, fetch, pull and push are not available in the shell.\n";

async function dispatch(invocation: GitInvocation, args: string[]): Promise<number> {
  const names = Object.keys(subcommands);
  const [name, ...rest] = args;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    invocation.out(usage(names));
    return name === undefined ? 1 : 0;
  }
  if (name === "--version" || name === "version") {
    // Not git's own version: this is isomorphic-git's, which implements a subset of git.
    invocation.out(`git version ${version()}.isomorphic-git (cubicle)\n`);
    return 0;
  }
  const handler = subcommands[name];
  if (!handler) {
    invocation.err(`git: '${name}' is not a git command supported here. Supported: ${names.join(", ")}\n`);
    return 1;
  }
  return handler(invocation, rest);
}

/**
 * Global options before the subcommand: `-C <dir>`, `-c <name>=<value>` (user.name and
 * user.email are honoured, for the commit's author; other settings are ignored), and the
 * no-ops agents add (`--no-pager`).
 */
function globalOptions(args: string[], cwd: string) {
  let at = 0;
  let dir = cwd;
  const settings = new Map<string, string>();
  while (at < args.length) {
    const arg = args[at] as string;
    const value = args[at + 1];
    if (arg === "-C" && value !== undefined) {
      dir = value.startsWith("/") ? value : `${dir}/${value}`;
      at += 2;
    } else if (arg === "-c" && value !== undefined) {
      const equals = value.indexOf("=");
      if (equals > 0) settings.set(value.slice(0, equals).toLowerCase(), value.slice(equals + 1));
      at += 2;
    } else if (arg === "--no-pager" || arg === "--no-optional-locks" || arg === "-P") at++;
    else break;
  }
  return { args: args.slice(at), cwd: normalizePath(dir), settings };
}

/** The `git` command for a run whose workspace is `capability`. */
export function gitCommand(capability: WorkspaceFsApi): Command {
  const fs = gitFsFromCapability(capability);
  return defineCommand("git", async (argv, ctx) => {
    const { args, cwd, settings } = globalOptions(argv, ctx.cwd);
    if (cwd !== workspaceMountPoint && !cwd.startsWith(`${workspaceMountPoint}/`)) {
      const message = `fatal: not a git repository: git works in ${workspaceMountPoint} only (${cwd} is scratch space)\n`;
      return { stdout: "", stderr: message, exitCode: 128 };
    }
    const invocation = new GitInvocation(fs, cwd.slice(workspaceMountPoint.length) || "/", ctx.env, settings);
    let exitCode: number;
    try {
      exitCode = await dispatch(invocation, args);
    } catch (error) {
      exitCode = report(invocation, error);
    }
    return { stdout: invocation.stdout, stderr: invocation.stderr, exitCode };
  });
}

/** git's words and exit code for a failure: `fatal:` (128) for its own, `error:` (1) for the rest. */
function report(invocation: GitInvocation, error: unknown): number {
  if (error instanceof GitFatal || error instanceof GitError) {
    invocation.err(`fatal: ${error.message}\n`);
    return 128;
  }
  const message = error instanceof Error ? error.message : String(error);
  invocation.err(`error: ${message}\n`);
  return 1;
}
