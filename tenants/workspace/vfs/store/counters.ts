/**
 * The `meta` counters (bytes, files, inodes, the revision), read once and written back once
 * per transaction: a mutation changes several together.
 */
export type Counter = "size_bytes" | "file_count" | "inode_count" | "revision";

export class Counters {
  private values: Record<Counter, number> | null = null;
  private readonly dirty = new Set<Counter>();
  /** How many `Store.atomically` calls are running; outside one, a change is written at once. */
  depth = 0;

  constructor(private readonly sql: SqlStorage) {}

  get(key: Counter): number {
    return this.all()[key];
  }

  /** Moves a counter by `delta` (the revision is set, never moved: `setRevision`). */
  add(key: Exclude<Counter, "revision">, delta: number): void {
    if (delta === 0) return;
    this.all()[key] += delta;
    this.dirty.add(key);
    if (this.depth === 0) this.flush();
  }

  setRevision(revision: number): void {
    this.all().revision = revision;
    this.dirty.add("revision");
    if (this.depth === 0) this.flush();
  }

  /** A copy of the values, to put back with `restore` when a transaction rolls back. */
  save(): Record<Counter, number> {
    return { ...this.all() };
  }

  restore(values: Record<Counter, number> | null): void {
    this.values = values;
    this.dirty.clear();
  }

  private all(): Record<Counter, number> {
    if (this.values) return this.values;
    const values = { size_bytes: 0, file_count: 0, inode_count: 0, revision: 0 };
    for (const row of this.sql.exec<{ key: string; value: number }>("SELECT key, value FROM meta").toArray()) {
      if (row.key in values) values[row.key as Counter] = row.value;
    }
    this.values = values;
    return values;
  }

  /** Writes every counter in one statement. */
  flush(): void {
    if (this.dirty.size === 0) return;
    const c = this.all();
    this.sql.exec(
      `UPDATE meta SET value = CASE key WHEN 'size_bytes' THEN ? WHEN 'file_count' THEN ? WHEN 'inode_count' THEN ?
       ELSE ? END WHERE key IN ('size_bytes', 'file_count', 'inode_count', 'revision')`,
      c.size_bytes,
      c.file_count,
      c.inode_count,
      c.revision,
    );
    this.dirty.clear();
  }
}
