/** Limits of the object's side of the container executor, each with its reason. */
export const containerLimits = {
  /** Connect attempts per run: a computer restarting after a crash is back within a second. */
  connectAttempts: 4,
  /** Wait before the n-th retry, times n. */
  connectRetryMs: 250,
  /** Conflicts kept on a run's record, as computerd keeps them (daemonLimits.conflictsKeptMax). */
  conflictsMax: 1_000,
  /** Characters of paths in those conflicts together: the record is one SQLite row, which holds 2 MB at most. */
  conflictPathCharsMax: 512 * 1024,
} as const;
