/** Limits of the account room, each with the reason it exists. */
export const accountLimits = {
  /** A verified key is trusted from the isolate's memory this long, so revocation takes effect within it. */
  keyCacheTtlMs: 10_000,
  /** Bounds the per-isolate key cache so a flood of distinct keys cannot grow memory. */
  keyCacheEntriesMax: 10_000,
  /** Enough for a key per agent in a large fleet; beyond it, keys are being leaked. */
  keysPerTenantMax: 1_000,
  /** Longest key or workspace name shown in lists and the dashboard. */
  nameLengthMax: 200,
  /** RFC 5321 caps an address path at 254 characters. */
  emailLengthMax: 254,
  /** A restricted key names a handful of workspaces, not a whole fleet. */
  keyWorkspaceIdsMax: 100,
} as const;
