/** A workspace's exact counters, as its object answers them with every change (WorkspaceDO). */
export interface WorkspaceStats {
  sizeBytes: number;
  fileCount: number;
  /** What storage bills: the unique bytes the tree and the snapshots reach (docs/billing.md). */
  uniqueBytes: number;
  /** The filesystem revision these counters are as of, so late reports can be told from new ones. */
  revision: number;
}

/**
 * The counters after a change, and the ones this instance answered with before it (null for
 * its first answer): the gateway writes the D1 index and the storage meter only for what moved.
 */
export interface Reported {
  stats: WorkspaceStats;
  previous: WorkspaceStats | null;
}
