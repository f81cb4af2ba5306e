/** Limits computerd holds itself to, each with the reason it exists. Wire-level limits live in container/wire. */
export const daemonLimits = {
  /** How long the kernel trusts a path's attributes and lookups; a change made through the API shows on the mount within this. */
  fuseAttrTimeoutSeconds: 1,
  fuseEntryTimeoutSeconds: 1,
  /** How long the kernel trusts "no such file"; same bound, so a file created through the API shows within it too. */
  fuseNegativeTimeoutSeconds: 1,
  /** Bytes per FUSE write request (big_writes); 128 KiB is the kernel's default cap and cuts per-call overhead 32x from 4 KiB. */
  fuseWriteBytesMax: 128 * 1024,
  /** How long one FUSE callback may take before the kernel is answered ETIMEDOUT; hydrating a large file can take a while. */
  fuseOpTimeoutMs: 10 * 60_000,
  /** How long an open of a not-yet-downloaded file waits for a session before failing with EIO. */
  hydrateSessionWaitMs: 30_000,
  /** How many times a download restarts because the file changed on the object while it was read. */
  hydrateRestartsMax: 5,
  /**
   * Quiet time after a local change before pushing, so a burst of writes costs one push. A push
   * runs on the same event loop as every FUSE op, so pushing in the short gaps of a busy command
   * (a shell loop, npm extracting) slowed the command itself; exec's flush pushes at its end anyway.
   */
  pushDebounceMs: 200,
  /** A command that writes without pause still gets its changes pushed this often. */
  pushDelayMsMax: 2_000,
  /** Own revisions remembered so that they are skipped when they come back down; older ones are compared by ETag instead. */
  ownRevsKeptMax: 100_000,
  /** After SIGTERM on timeout, how long the process group has before SIGKILL. */
  killGraceMs: 2_000,
  /** After a command exits, how long its output pipes may stay open (a background child holding them) before they are cut. */
  stdioDrainAfterExitMs: 2_000,
  /** Largest stdin accepted; it travels inside one RPC message. */
  stdinBytesMax: 4 * 1024 * 1024,
  /** Largest incoming WebSocket message; capnweb carries bytes as base64 inside JSON, chunks are ≤ 4 MiB raw. */
  wsPayloadBytesMax: 32 * 1024 * 1024,
  /** Commands running at once; each is a process group the daemon must track and kill. */
  runningExecsMax: 64,
  /** Kills remembered for commands not started yet; only the newest matter (a kill races its own start). */
  earlyKillsKept: 1_024,
} as const;

/** The environment a command starts from, before the request's own variables. */
export const execEnvDefaults = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  LANG: "C.UTF-8",
  TERM: "dumb",
  TZ: "UTC",
} as const;

/**
 * Variables copied from the daemon's own environment when set: where the machine keeps its
 * TLS trust store (a TLS-inspecting egress proxy adds its CA there). They carry no secret.
 */
export const execEnvPassthrough = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"] as const;
