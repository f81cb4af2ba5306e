/** Bounds of building and waiting for the box's root image (build.ts), each with its reason. */
export const imageLimits = {
  /** A whole build; a cold one took 7.5 min on 2 loaded cores (docs/container-image.md), so past this it is stuck, not slow. */
  buildMsMax: 30 * 60_000,
  /** How often a caller waiting for another process's build looks whether it finished or died. */
  lockPollMs: 500,
  /** Log lines kept from a build to explain a failure. */
  logTailLines: 20,
  /** How long a build is assumed to take when no earlier build on this machine says better: between a cold build on idle and on loaded cores. */
  buildMsEstimate: 300_000,
  /** Bounds of the Retry-After a caller gets while the image builds: never "now", and no promise further out than a slow build. */
  retryAfterSecondsMin: 5,
  retryAfterSecondsMax: 600,
  /** A long phase (downloading, installing) is reported again this often, so a watcher sees the build is alive. */
  progressEveryMs: 15_000,
} as const;
