/** Limits of share links, each with the reason it exists. */
export const shareLimits = {
  /** Shortest link: anything shorter expires in flight; tests use it to watch expiry. */
  ttlSecondsMin: 1,
  /**
   * Longest link: a share link is a bearer credential anyone may forward, so it expires
   * within a week; what must live longer is an artifact behind an authenticated download.
   */
  ttlSecondsMax: 7 * 24 * 60 * 60,
  /** What `share` without `--ttl` and a request without `ttlSeconds` get. */
  ttlSecondsDefault: 60 * 60,
  /**
   * Longest a browser may reuse a shared file without asking again: the link serves the
   * file's current bytes and can be revoked, so a copy may be at most this stale.
   */
  cacheSecondsMax: 60,
  /** Largest page of a workspace's share list. */
  listPageMax: 100,
} as const;
