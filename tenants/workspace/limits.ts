/** Limits of the workspace room, each with the reason it exists. Breaking one is a precise error, never a partial write. */
export const workspaceLimits = {
  /** Linux PATH_MAX; tools in the container executor cannot use longer paths anyway. */
  pathLengthMax: 4096,
  /** Linux NAME_MAX, in bytes. */
  nameLengthMax: 255,
  /** Deeper trees are almost always a runaway loop, and every lookup walks the depth. */
  depthMax: 256,
  /** Content chunk size: well under the 2 MB Durable Object SQLite row limit, big enough that a 1 GiB file is 2,048 rows. */
  chunkBytes: 512 * 1024,
  /** Largest file; streamed both ways, so memory does not bound it, the object's 10 GB storage does. */
  fileBytesMax: 2 * 1024 * 1024 * 1024,
  /** Logical bytes per workspace; a Durable Object stores at most 10 GB, and dedup can only help. */
  workspaceBytesMax: 8 * 1024 * 1024 * 1024,
  /** Files, directories and links per workspace, so one listing or recursive walk stays bounded. */
  inodesMax: 1_000_000,
  /** Entries in one directory, so a plain listing stays a bounded query. */
  entriesPerDirectoryMax: 100_000,
  /** Names of one file (hard links): ext4's EXT4_LINK_MAX, so no link the box made is refused here. */
  linksPerInodeMax: 65_000,
  /** Default and largest page of `list` and `find`. */
  listPageDefault: 1_000,
  listPageMax: 10_000,
  /** Symlinks followed in one resolution before ELOOP (Linux MAXSYMLINKS is 40). */
  symlinkHopsMax: 40,
  /** Symlink target length, as PATH_MAX. */
  symlinkTargetLengthMax: 4096,
  /** grep: matches returned, bytes of one reported line, bytes scanned per call. */
  grepMatchesDefault: 1_000,
  grepMatchesMax: 10_000,
  grepLineBytesMax: 4_096,
  grepScanBytesMax: 256 * 1024 * 1024,
  /** A regex longer than this is a program, not a search; it also bounds compile cost. */
  grepPatternLengthMax: 1_000,
  /** batch: operations per call and inline bytes in total; larger content goes through PUT. */
  batchOpsMax: 1_000,
  batchBytesMax: 32 * 1024 * 1024,
  /** Garbage chunks reclaimed per alarm, so one alarm never holds the object for long. */
  gcChunksPerAlarm: 256,
  /** Delay before garbage is collected, so a read that started before an overwrite can finish. */
  gcDelayMs: 30_000,
  /** Retired row versions pruned per table per maintenance pass, for the same reason as `gcChunksPerAlarm`. */
  historyRowsPerPass: 2_000,
  /**
   * Packing the past (vfs/pack.ts): kept chunk rows looked at, and chunk bytes read to pack
   * them, per maintenance pass, for the same reason as `gcChunksPerAlarm`; chunks smaller than this stay whole (packing one
   * saves under half of it, about the size of its row); and how many chunks may be packed
   * against one before it is packed itself, since each must be repacked then.
   */
  packRowsPerPass: 256,
  packBytesPerPass: 32 * 1024 * 1024,
  packChunkBytesMin: 2_048,
  packDependentsMax: 8,
  /** How often maintenance slides the history window while history exists, so it is pruned without writes. */
  historyPassEveryMs: 10 * 60_000,
  /** Paths one diff answers before it stops (`truncated`), so one answer stays a bounded size. */
  diffEntriesMax: 10_000,
  /** A file larger than this is "binary or too large" in a patch, so one patch stays a bounded size. */
  patchFileBytesMax: 1024 * 1024,
  /**
   * Bytes of one `format=patch` diff's text (UTF-8): past it the answer is 413, saying how to
   * narrow it, so a diff of many large text files never builds a body the size of a workspace.
   */
  patchBytesMax: 8 * 1024 * 1024,
  /** Versions one history answer lists. */
  historyVersionsMax: 1_000,
  /**
   * Forks (vfs/forks/): one page of a revision's rows as JSON, under the 2 MB a Durable
   * Object's SQLite allows one string value, so a page is built and bound as one value.
   */
  forkPageBytesMax: 1_500_000,
  /** Rows per page, so building one page never sorts more than this in memory. */
  forkPageRowsMax: 20_000,
  /** Bytes of pages one export call answers, well under the 32 MiB of one Workers RPC message. */
  forkExportCallBytesMax: 16 * 1024 * 1024,
  /**
   * Bytes of rows one call of a fork's background import carries (one page). Small, so
   * neither side is held long by one call: the source answers the fork's reads meanwhile,
   * and the fork forwards them (docs/vfs.md, "Forks").
   */
  forkImportCallBytesMax: 256 * 1024,
  /** Chunks one lend call carries (8 MiB), for the same reason. */
  forkLendChunksMax: 16,
  /** Forks of one workspace still reading through from it at once: each keeps its revision's versions. */
  forksSharingMax: 100,
  /** Chunks a fork's alarm copies from its source per run (32 MiB), so one alarm never holds the object long. */
  forkCopyChunksPerAlarm: 64,
  /** A fork the workspace index does not list this long after its import deletes itself (unlistedFork.ts). */
  forkListedWithinMs: 10 * 60_000,
  /** A fork pin this old is checked with its fork, so a fork whose import never finished cannot pin forever. */
  forkPinCheckAfterMs: 10 * 60_000,
  /** A source being deleted retries handing its chunks over this often until every fork has them. */
  forkHandOverRetryMs: 30_000,
  /** Change-log entries kept when no reader has registered an older cursor. */
  changeLogEntriesKept: 10_000,
  /** Metadata labels are for filtering, not storage. */
  metadataKeysMax: 32,
  metadataKeyLengthMax: 64,
  metadataValueLengthMax: 512,
} as const;
