/**
 * Git over a workspace: the module behind the shell's `git` command and the javascript
 * executor's `ws:git`. Built on isomorphic-git (objects, index, refs) and the `diff`
 * package (hunks); repositories it writes are ordinary git repositories that the real
 * `git` reads (e2e/git.test.ts proves it with `git fsck --strict`).
 *
 * ```ts
 * const git = createGit(fs, { dir: "/proj", author: "Ada <ada@example.com>" });
 * await git.init();                                   // { created: true }
 * await git.add(".");                                 // { added: ["a.txt"], removed: [] }
 * const { oid } = await git.commit({ message: "first" });
 * await git.status();                                 // [{ path, staged, unstaged, code }]
 * await git.log({ depth: 10 });                       // [{ oid, subject, message, author, … }]
 * await git.diff({ from: "HEAD~1", to: "HEAD" });     // "diff --git a/a.txt b/a.txt\n…"
 * await git.checkout({ ref: "feature", create: true });
 * ```
 *
 * The filesystem (`fs`) is Node's `fs` shape with only `promises`: `readFile`, `writeFile`,
 * `unlink`, `readdir`, `mkdir`, `rmdir`, `stat`, `lstat`, `readlink`, `symlink`, `chmod`,
 * rejecting with Node-style errors that carry `code` (`ENOENT`…). Stats need
 * `isFile/isDirectory/isSymbolicLink()`, `mode` with the type bits (`0o100644`), `size`,
 * `mtimeMs`, `ctimeMs`, `ino`, `dev`, `uid`, `gid` as numbers. A `node:fs/promises` shim
 * passes as `{ promises: shim }`; the workspace capability passes through
 * `gitFsFromCapability(capability)`. `dir` is the working tree's root as that fs sees it.
 *
 * Methods of `createGit(fs, { dir = "/", author = "Cubicle Agent <agent@cubicle.dev>",
 * defaultBranch = "main" })`, all async; paths are relative to `dir`:
 * - `init()` → `{ created }`; sets core.filemode/symlinks on, ignorecase off.
 * - `add(paths | ".")` → `{ added, removed }`: stages as `git add -A <paths>`.
 * - `commit({ message, author?, allowEmpty? })` → `{ oid, branch, root, paths }`.
 * - `status({ paths? })` → `GitStatusEntry[]` (`staged`: new/modified/deleted,
 *   `unstaged`: modified/deleted/untracked, `code`: git's `XY`), changed paths only.
 * - `log({ depth?, ref? })` → `GitCommitInfo[]`, newest first.
 * - `diff({ from?, to?, cached?, paths? })` → unified diff text, with `git diff`'s choice
 *   of sides: none = index→working tree; `cached` = HEAD→index; `from` = commit→working
 *   tree (or →index with `cached`); `from` + `to` = commit→commit.
 * - `changes(same options)` → per-file `GitFileChange` (status, ids, modes, line counts).
 * - `branch.list()`, `branch.current()`, `branch.create(name, { start? })`,
 *   `branch.delete(name, { force? })`.
 * - `checkout({ ref, create? })` → `{ branch, oid }`.
 * - `resolve(revision = "HEAD")` → commit id (`HEAD~1`, `main^`, abbreviated ids).
 * - `listFiles()` → the index's paths; `config.get(path)`, `config.set(path, value)` on `.git/config`.
 * Expected failures throw `GitError` with a `code` (errors.ts); `findGitRoot(fs, from)`
 * finds the repository above a directory as git does. No remotes: clone, fetch and push
 * are not offered (README.md says why).
 */

export {
  createGit,
  defaultAuthor,
  findGitRoot,
  type Git,
  type GitCommitInfo,
  type GitDiffOptions,
  type GitOptions,
  type GitPerson,
  type GitSignature,
  parsePerson,
} from "./createGit.ts";
export { type DiffSide, diffChanges, diffText, type GitFileChange } from "./diff.ts";
export { GitError, type GitErrorCode } from "./errors.ts";
export {
  type GitFs,
  GitFsError,
  type GitFsPromises,
  type GitStats,
  gitFsFromCapability,
  normalizePath,
} from "./gitFs.ts";
export { gitLimits } from "./limits.ts";
export type { GitStagedChange, GitStatusEntry, GitUnstagedChange } from "./status.ts";
