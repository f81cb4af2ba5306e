/**
 * The one error `createGit`'s methods throw for expected failures of their own, with a
 * stable `code` a caller can branch on. Failures from isomorphic-git itself (a corrupt
 * object, a checkout conflict) pass through as its own errors, which carry a `code` too
 * (`NotFoundError`, `CheckoutConflictError`, …); filesystem failures carry Node's
 * (`ENOENT`, `EACCES`).
 */
export type GitErrorCode =
  /** No `.git` at `dir` (or, for `findGitRoot` callers, above the starting directory). */
  | "NotAGitRepository"
  /** `log`, `diff` against HEAD, … on a branch with no commits yet. */
  | "NoCommits"
  /** `commit` with nothing staged (and `allowEmpty` not set). */
  | "NothingToCommit"
  /** `commit` with an empty message. */
  | "EmptyMessage"
  /** An author that is not `Name <email>`. */
  | "InvalidAuthor"
  /** `add` of a path that matches no file, tracked or not. */
  | "PathspecNoMatch"
  /** A revision that names no commit. */
  | "UnknownRevision"
  /** `branch.delete` of the checked-out branch, or of one not merged (without `force`). */
  | "BranchNotDeletable"
  /** `branch.create` or `checkout({ create })` of a branch that exists. */
  | "BranchExists";

export class GitError extends Error {
  constructor(
    readonly code: GitErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "GitError";
  }
}
