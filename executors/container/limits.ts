/** Limits of the object's side of the container executor, each with its reason. */
export const containerLimits = {
  /** Connect attempts per run: a computer restarting after a crash is back within a second. */
  connectAttempts: 4,
  /** Wait before the n-th retry, times n. */
  connectRetryMs: 250,
} as const;
