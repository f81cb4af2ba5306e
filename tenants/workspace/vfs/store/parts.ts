/**
 * What the store's set-wise steps (`addNew`, `restoreRows`) need of it: its database, its
 * caches, counters and history rules. The store passes itself; the steps import only this.
 */
import type { RowCache } from "./cache.ts";
import type { Counters } from "./counters.ts";
import type { History } from "./history.ts";
import type { Inode } from "./types.ts";

export interface StoreParts {
  readonly sql: SqlStorage;
  readonly cache: RowCache;
  readonly counters: Counters;
  readonly history: History;
  /** Who the running mutation is for (`key:<id>`, `exec:<id>`, `sync`). */
  readonly actor: string | null;
  nowMs(): number;
  inode(ino: number): Inode | null;
}
