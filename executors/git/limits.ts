/** Limits of the git module (`createGit`), each with its reason. */
export const gitLimits = {
  /** Commits `log` returns when no depth is asked for; every commit is one object read (an RPC in a sandbox). */
  logDepthDefault: 1_000,
  /** The most commits one `log` returns, asked or not. */
  logDepthMax: 10_000,
  /** A file larger than this (either side) is not diffed line by line; its hunk says so instead. */
  diffFileBytesMax: 2 * 1024 * 1024,
  /** Text `diff` returns; past it the rest is cut and a line says so, so one call cannot fill the isolate's heap. */
  diffOutputBytesMax: 8 * 1024 * 1024,
  /** Lines of context around each change, as git's default (`-U3`). */
  diffContextLines: 3,
  /** Directory levels `findRoot` climbs looking for `.git`; deeper than any real workspace path. */
  rootSearchDepthMax: 256,
} as const;
