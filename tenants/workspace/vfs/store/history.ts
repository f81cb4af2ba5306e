/**
 * What a mutation does with the row versions it ends: history keeps a version while the
 * time window or a snapshot (or a fork reading through) needs it, and a run's own passing
 * versions collapse into one. The store asks here before it changes or deletes a live row.
 */
import { INODE_COLUMNS } from "../schema.ts";
import { CACHE_ENTRIES_MAX } from "./cache.ts";
import type { Counters } from "./counters.ts";
import type { Inode } from "./types.ts";

/** The condition, and its three parameters, under which a live version about to end is kept. */
export type KeepRule = [string, number, number, number];

export class History {
  /**
   * What history must keep: the time window in milliseconds (0: none) and the newest
   * snapshot's revision (-1: none). Read once; snapshot and window changes reset it.
   */
  private retention: { windowMs: number; newestPin: number } | null = null;
  private readonly revisionActors = new Map<number, string | null>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly counters: Counters,
    /** Who the running mutation is for (`Store.actor`). */
    private readonly actor: () => string | null,
    private readonly inode: (ino: number) => Inode | null,
  ) {}

  /** Re-reads the retention rule after a snapshot was taken or deleted or the window changed. */
  changed(): void {
    this.retention = null;
  }

  forget(): void {
    this.retention = null;
    this.revisionActors.clear();
  }

  /**
   * The revision the running mutation will commit as: every row it writes is born in it,
   * and every version it ends dies in it.
   */
  nextRev(): number {
    return this.counters.get("revision") + 1;
  }

  private retained(): { windowMs: number; newestPin: number } {
    if (this.retention) return this.retention;
    const windowMs =
      this.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'history_ms'").toArray()[0]?.value ?? 0;
    // A fork still reading its chunks through from here pins its revision as a snapshot does.
    const newestPin =
      this.sql
        .exec<{ rev: number | null }>(
          "SELECT max(rev) AS rev FROM (SELECT max(rev) AS rev FROM snapshots UNION ALL SELECT max(rev) FROM fork_pins)",
        )
        .one().rev ?? -1;
    this.retention = { windowMs, newestPin };
    return this.retention;
  }

  /**
   * The condition (and its three parameters) under which a live row version about to end
   * must be kept: it was born before this mutation, and the history window is on or a
   * snapshot's revision is at or after its birth (a snapshot at S needs every version alive
   * at S, and a version ending now was alive at every revision since it was born).
   * Null when nothing is kept at all, so the common path runs no extra statement.
   */
  keepRule(): KeepRule | null {
    const { windowMs, newestPin } = this.retained();
    if (windowMs === 0 && newestPin < 0) return null;
    return ["born_rev < ? AND (? OR born_rev <= ?)", this.nextRev(), windowMs > 0 ? 1 : 0, newestPin];
  }

  /**
   * One history version per run per row: when a run (`exec:<id>`) ends a version it made
   * itself, which no snapshot or fork pins, the window does not keep it. A run that writes a
   * file a thousand times leaves one version, what the run left, not a thousand. The
   * revisions such a version was alive in are the run's passing states: noted in
   * `run_spans`, they are not readable (versions/retention.ts `isReadable`), so every
   * revision that is reads back exactly.
   */
  collapses(born: number | undefined, next = this.nextRev()): boolean {
    const actor = this.actor();
    if (born === undefined || !actor?.startsWith("exec:")) return false;
    const { windowMs, newestPin } = this.retained();
    // Without a window only pins keep versions, and a pinned one is never dropped.
    if (windowMs === 0 || born >= next || born <= newestPin || this.actorOf(born) !== actor) return false;
    this.sql.exec(
      `INSERT INTO run_spans (actor, from_rev, to_rev) VALUES (?, ?, ?) ON CONFLICT (actor)
       DO UPDATE SET from_rev = min(from_rev, excluded.from_rev), to_rev = max(to_rev, excluded.to_rev)`,
      actor,
      born,
      next,
    );
    return true;
  }

  /** Who made revision `rev` (the change log's actor), remembered: a committed entry never changes. */
  private actorOf(rev: number): string | null {
    const known = this.revisionActors.get(rev);
    if (known !== undefined) return known;
    const actor =
      this.sql.exec<{ actor: string | null }>("SELECT actor FROM changes WHERE rev = ?", rev).toArray()[0]?.actor ??
      null;
    if (this.revisionActors.size >= CACHE_ENTRIES_MAX) this.revisionActors.clear();
    this.revisionActors.set(rev, actor);
    return actor;
  }

  /** Whether the running mutation is a run's, so a version's birth is worth looking up for `collapses`. */
  get runActing(): boolean {
    return this.actor()?.startsWith("exec:") ?? false;
  }

  /** Moves the live version of inode `ino` to history if it must be kept; the caller then changes or deletes it. */
  retireInode(ino: number): void {
    const rule = this.keepRule();
    if (!rule) return;
    if (this.runActing && this.collapses(this.inode(ino)?.born_rev)) return;
    const [condition, ...params] = rule;
    this.sql.exec(
      `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev) SELECT ${INODE_COLUMNS}, ? FROM inodes WHERE ino = ? AND ${condition}`,
      this.nextRev(),
      ino,
      ...params,
    );
  }

  /** Moves the live version of entry (parent, name) to history if it must be kept. */
  retireEntry(parent: number, name: string): void {
    const rule = this.keepRule();
    if (!rule) return;
    if (this.runActing) {
      const born = this.sql
        .exec<{ born_rev: number }>("SELECT born_rev FROM dirents WHERE parent = ? AND name = ?", parent, name)
        .toArray()[0]?.born_rev;
      if (this.collapses(born)) return;
    }
    const [condition, ...params] = rule;
    this.sql.exec(
      `INSERT INTO dirents_hist (parent, name, ino, born_rev, died_rev)
       SELECT parent, name, ino, born_rev, ? FROM dirents WHERE parent = ? AND name = ? AND ${condition}`,
      this.nextRev(),
      parent,
      name,
      ...params,
    );
  }
}
