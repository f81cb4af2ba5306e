/**
 * `ws:git`'s implementation, bundled apart from the runtime (isomorphic-git is most of its
 * size) and put in a run's module map only when the run imports `ws:git`. It binds
 * ../../git's `createGit` to the run's node:fs/promises shim, so git sees exactly the files
 * module code sees, with the same confinement. The facade module (../builtins.ts) passes
 * the shim in.
 */
import { createGit, type GitOptions } from "../../git/index.ts";
import type { FsPromises } from "./fsPromises.ts";
import { absolutePath } from "./paths.ts";

/** `createGit` for module code: `dir` is a Node path (relative to the working directory), /workspace by default. */
export function gitOver(fsPromises: FsPromises, cwd: () => string) {
  return (options: GitOptions = {}) =>
    createGit({ promises: fsPromises } as unknown as Parameters<typeof createGit>[0], {
      ...options,
      dir: absolutePath(cwd(), options.dir ?? "/workspace"),
    });
}

export { GitError } from "../../git/index.ts";
