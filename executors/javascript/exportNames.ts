/**
 * The names each builtin module exports. The host generates the facade modules from these
 * lists (builtins.ts) and the guest's implementations are checked against them (tests), so
 * a function added to one side but not the other is caught.
 */
export const fsPromisesExportNames = [
  "readFile",
  "writeFile",
  "appendFile",
  "readdir",
  "stat",
  "lstat",
  "mkdir",
  "rm",
  "rmdir",
  "unlink",
  "rename",
  "copyFile",
  "cp",
  "symlink",
  "readlink",
  "chmod",
  "chown",
  "lchown",
  "link",
  "utimes",
  "lutimes",
  "truncate",
  "access",
  "realpath",
  "constants",
] as const;

/** `node:fs` functions offered in callback form (over the promise ones). */
export const nodeFsSyncNames = [
  "accessSync",
  "appendFileSync",
  "chmodSync",
  "chownSync",
  "copyFileSync",
  "cpSync",
  "existsSync",
  "linkSync",
  "lstatSync",
  "mkdirSync",
  "readdirSync",
  "readFileSync",
  "readlinkSync",
  "realpathSync",
  "renameSync",
  "rmdirSync",
  "rmSync",
  "statSync",
  "symlinkSync",
  "truncateSync",
  "unlinkSync",
  "utimesSync",
  "writeFileSync",
  "openSync",
  "closeSync",
  "createReadStream",
  "createWriteStream",
  "watch",
  "exists",
] as const;

export const nodeFsCallbackNames = [
  "access",
  "appendFile",
  "chmod",
  "chown",
  "copyFile",
  "cp",
  "lchown",
  "link",
  "lstat",
  "mkdir",
  "readdir",
  "readFile",
  "readlink",
  "realpath",
  "rename",
  "rm",
  "rmdir",
  "stat",
  "symlink",
  "truncate",
  "unlink",
  "utimes",
  "lutimes",
  "writeFile",
] as const;

/** `node:fs`: `promises`, `constants`, the callback forms and the synchronous stubs. */
export const nodeFsExportNames = ["promises", "constants", ...nodeFsCallbackNames, ...nodeFsSyncNames] as const;

export const artifactsExportNames = ["publish", "share"] as const;

export const aiExportNames = ["generateImage"] as const;

/** `ws:git`'s named exports: the default repository's methods (at /workspace), plus `createGit` and `GitError`. */
export const gitMethodNames = [
  "init",
  "add",
  "commit",
  "status",
  "listFiles",
  "log",
  "diff",
  "changes",
  "branch",
  "checkout",
  "resolve",
  "config",
] as const;
