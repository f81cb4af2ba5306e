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
  /** The shortest lifetime a token's `exp` can express: it counts whole seconds. */
  tokenTtlSecondsMin: 1,
  /** A day covers a long agent session; a leaked token dies by tomorrow even if its key is never revoked. */
  tokenTtlSecondsMax: 86_400,
  /** A token carries a handful of claims; anything much longer is not one of ours and is refused unparsed. */
  tokenLengthMax: 4_096,
  /** The signing keyring is re-read this often, so a key added for rotation is used by every isolate within it. */
  signingKeyCacheTtlMs: 60_000,
  /** A token naming a `kid` this isolate does not know re-reads the keyring at most this often, so forged kids cannot flood D1. */
  signingKeyRefreshMinMs: 1_000,
} as const;
