/**
 * Every bound the local supervisor keeps, with why. Options of the same names override
 * them (tests shrink the times); a limit nobody overrides is still written down here.
 */
export const supervisorLimits = {
  /** Daemons at once: each holds a FUSE mount, a Node heap (~60 MiB) and a replica on disk; 16 fits a laptop. */
  computersMax: 16,
  /** A daemon idle this long with nothing running is stopped; its state dir stays, so the next start resumes. */
  idleMsMax: 10 * 60_000,
  /** How often each daemon's /healthz is read for the idle check: cheap, and idle stops need no precision. */
  healthPollMs: 15_000,
  /** One /healthz answer: a daemon slower than this is busy or hung, so it counts as not idle. */
  healthTimeoutMs: 2_000,
  /** From spawn to the ready line: unshare takes ~0.2 s and Node plus the FUSE mount ~1 s; 20 s means it is stuck. */
  startTimeoutMs: 20_000,
  /** Between SIGTERM and SIGKILL: long enough for computerd to push pending changes and unmount. */
  stopGraceMs: 10_000,
  /** After the daemon exited, how long its namespace may take to empty before a stop reports failure. */
  stopVerifyMs: 5_000,
  /** Crash restarts of one computer within a minute before the supervisor gives up on it (a crash loop). */
  restartsPerMinuteMax: 5,
  /** First crash-restart delay; doubles with each recent restart so a crash loop does not spin. */
  restartBackoffMs: 250,
  /** Ceiling of that doubling delay. */
  restartBackoffMsMax: 8_000,
  /** stderr lines kept per daemon to explain a failed start in the error detail. */
  logTailLines: 20,
  /** Request line and headers only: the API has no bodies, so anything bigger is not ours. */
  requestHeaderBytesMax: 8 * 1024,
  /**
   * First host uid of the first computer's box range (each other computer's range starts
   * boxUidsPerComputer further on): far from login and system users, and above computerd's
   * own default range (100000–165535).
   */
  boxUidBase: 200_000,
  /** Host uids per computer: its boxes map uids 0–65535 (container/src/limits.ts, boxLimits.uidsMapped). */
  boxUidsPerComputer: 65_536,
  /** Length of `<tenantId>:<workspaceId>`; ids are ~30 characters, so this is generous. */
  nameCharsMax: 160,
} as const;

/**
 * Node's flags for every computerd (container/Dockerfile's CMD says the same). A young
 * generation of 2 MiB per semi-space instead of V8's default 16: computerd's garbage is
 * small messages, and the larger one only kept ~25 MiB more resident after a 36,000-file
 * pull (issue 19's daemon RSS target). `--expose-gc` lets a whole-workspace walk end with
 * V8's most thorough collection (container/src/sync/pull.ts).
 */
export const daemonNodeFlags = ["--max-semi-space-size=2", "--expose-gc"] as const;

/**
 * glibc's malloc settings for every computerd (container/Dockerfile sets the same). With a
 * 36,000-file workspace's first pull, computerd's RssAnon after its first command fell from
 * 85 to 64 MiB with both (issue 19's daemon memory target is 64): most of what it kept was
 * malloc's, not V8's.
 */
export const daemonMallocEnv = {
  /** Two arenas, not one per thread: each of the 16 thread-pool threads' arenas kept megabytes of freed memory. */
  MALLOC_ARENA_MAX: "2",
  /**
   * A fixed mmap threshold: glibc raises its own to the size of each large block freed, so
   * the next multi-MiB WebSocket message was allocated on the heap and stayed resident.
   */
  MALLOC_MMAP_THRESHOLD_: "65536",
} as const;
