/** Limits every executor run is held to, each with the reason it exists. */
export const execLimits = {
  /** A run with no timeout of its own; long enough for tests and builds, short enough to notice a hang. */
  timeoutMsDefault: 60_000,
  /** The longest run; longer work belongs in background runs that a client re-attaches to. */
  timeoutMsMax: 15 * 60_000,
  /** Output stored per run (stdout and stderr together); past it a truncation marker is written once. */
  outputBytesMax: 16 * 1024 * 1024,
  /** One stored output piece; larger writes are split so a row stays far below SQLite's 2 MB. */
  outputPieceBytesMax: 64 * 1024,
  /** Standard input, which travels inside the JSON request body. */
  stdinBytesMax: 512 * 1024,
  /** The command or module source. */
  sourceBytesMax: 256 * 1024,
  /** Environment variables per run, and the size of one value. */
  envEntriesMax: 128,
  envValueBytesMax: 16 * 1024,
  /** Records kept per workspace, and their age; older ones and their output are pruned. */
  recordsKept: 1_000,
  recordAgeMsMax: 7 * 24 * 60 * 60 * 1000,
  /** Output events in one page of the JSON output endpoint. */
  outputPageMax: 1_000,
  /** just-bash: loop iterations and commands per run, against runaway scripts. */
  shellLoopIterationsMax: 1_000_000,
  shellCommandsMax: 100_000,
  /** javascript: the module's return value as JSON; it is stored in the exec record's row and answered inline. */
  javascriptResultBytesMax: 1024 * 1024,
  /** javascript: workspace modules one run may import (all read before the Worker starts, one RPC each). */
  javascriptModulesMax: 256,
  /** javascript: how deep relative imports may nest; deeper chains are almost always a cycle of generated paths. */
  javascriptImportDepthMax: 32,
  /** javascript: source of all modules together; the isolate compiles every one before the run starts. */
  javascriptModuleBytesMax: 8 * 1024 * 1024,
  /** javascript: CPU time of one run (the isolate's `limits.cpuMs`), as the Workers platform's own default. */
  javascriptCpuMsMax: 30_000,
  /**
   * javascript: memory one run's isolate may hold, as the Workers platform's per-isolate limit
   * (128 MB), which it enforces in production; locally the guest enforces it (javascript/guest/heapWatch.ts).
   */
  javascriptMemoryBytesMax: 128 * 1024 * 1024,
  /**
   * javascript: subrequests of one run (the isolate's `limits.subRequests`), as the Workers Paid
   * plan's default per request, so a run stays within it however the account is configured.
   */
  javascriptSubrequestsMax: 10_000,
  /** javascript: runs at once per workspace; each is an isolate of up to 128 MB in the workspace object's process. */
  javascriptRunsPerWorkspaceMax: 8,
} as const;
