/**
 * The tree as it was at a revision R: a row version is visible when it was born by R and
 * had not died by then. Live rows carry only `born_rev` (they have not died); retired ones
 * sit in the `_hist` tables with `died_rev`. Every question here is one or two indexed
 * lookups, so reading the past costs what reading the present does, without the caches.
 */
import { INODE_COLUMNS, ROOT_INO } from "../schema.ts";
import type { Inode, TreeReader } from "../store.ts";

export type ChunkRow = {
  idx: number;
  hash: string;
  size: number;
};

export class RevisionTree implements TreeReader {
  constructor(
    private readonly sql: SqlStorage,
    readonly rev: number,
  ) {}

  /**
   * Remembered answers: a past revision never changes, and a tree over the live revision
   * lives only inside one synchronous call (a diff, a restore), so nothing goes stale.
   */
  private readonly inodes = new Map<number, Inode | null>();
  private readonly entries = new Map<string, number | null>();

  inode(ino: number): Inode | null {
    const known = this.inodes.get(ino);
    if (known !== undefined) return known;
    const row = this.inodeRow(ino);
    this.inodes.set(ino, row);
    return row;
  }

  private inodeRow(ino: number): Inode | null {
    return (
      this.sql
        .exec<Inode>(
          `SELECT ${INODE_COLUMNS} FROM inodes WHERE ino = ? AND born_rev <= ?
           UNION ALL
           SELECT ${INODE_COLUMNS} FROM inodes_hist WHERE ino = ? AND born_rev <= ? AND died_rev > ?`,
          ino,
          this.rev,
          ino,
          this.rev,
          this.rev,
        )
        .toArray()[0] ?? null
    );
  }

  /** The inode number `name` in `parent` named at R, or null. */
  entry(parent: number, name: string): number | null {
    const key = `${parent}/${name}`;
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const ino = this.entryRow(parent, name);
    this.entries.set(key, ino);
    return ino;
  }

  private entryRow(parent: number, name: string): number | null {
    return (
      this.sql
        .exec<{ ino: number }>(
          `SELECT ino FROM dirents WHERE parent = ? AND name = ? AND born_rev <= ?
           UNION ALL
           SELECT ino FROM dirents_hist WHERE parent = ? AND name = ? AND born_rev <= ? AND died_rev > ?`,
          parent,
          name,
          this.rev,
          parent,
          name,
          this.rev,
          this.rev,
        )
        .toArray()[0]?.ino ?? null
    );
  }

  lookup(parent: number, name: string): Inode | null {
    const ino = this.entry(parent, name);
    return ino === null ? null : this.inode(ino);
  }

  /** A directory's entries at R, by name. */
  children(dir: number): { name: string; ino: number }[] {
    return this.sql
      .exec<{ name: string; ino: number }>(
        `SELECT name, ino FROM dirents WHERE parent = ? AND born_rev <= ?
         UNION ALL
         SELECT name, ino FROM dirents_hist WHERE parent = ? AND born_rev <= ? AND died_rev > ?
         ORDER BY name`,
        dir,
        this.rev,
        dir,
        this.rev,
        this.rev,
      )
      .toArray();
  }

  chunks(ino: number): ChunkRow[] {
    return this.sql
      .exec<ChunkRow>(
        `SELECT idx, hash, size FROM file_chunks WHERE ino = ? AND born_rev <= ?
         UNION ALL
         SELECT idx, hash, size FROM file_chunks_hist WHERE ino = ? AND born_rev <= ? AND died_rev > ?
         ORDER BY idx`,
        ino,
        this.rev,
        ino,
        this.rev,
        this.rev,
      )
      .toArray();
  }

  /** The names of `ino` at R: (parent, name) pairs. */
  namesOf(ino: number): { parent: number; name: string }[] {
    const known = this.names.get(ino);
    if (known) return known;
    const rows = this.sql
      .exec<{ parent: number; name: string }>(
        `SELECT parent, name FROM dirents WHERE ino = ? AND born_rev <= ?
         UNION ALL
         SELECT parent, name FROM dirents_hist WHERE ino = ? AND born_rev <= ? AND died_rev > ?`,
        ino,
        this.rev,
        ino,
        this.rev,
        this.rev,
      )
      .toArray();
    this.names.set(ino, rows);
    return rows;
  }

  private readonly names = new Map<number, { parent: number; name: string }[]>();

  /**
   * Loads what a diff or a restore is about to ask of each of `inos`, set-wise: their rows,
   * their names, and the names of every directory above them up to the root, one
   * statement per table and level instead of one per question. The cost then follows the
   * number of changed rows, not the statements' own overhead per row.
   */
  preload(inos: readonly number[]): void {
    const INOS = "(SELECT value FROM json_each(?))";
    const missing = inos.filter((ino) => !this.inodes.has(ino));
    for (const ino of missing) this.inodes.set(ino, null);
    const wanted = JSON.stringify(missing);
    for (const row of this.sql
      .exec<Inode>(
        `SELECT ${INODE_COLUMNS} FROM inodes WHERE ino IN ${INOS} AND born_rev <= ?
         UNION ALL
         SELECT ${INODE_COLUMNS} FROM inodes_hist WHERE ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`,
        wanted,
        this.rev,
        wanted,
        this.rev,
        this.rev,
      )
      .toArray())
      this.inodes.set(row.ino, row);
    let level = inos.filter((ino) => !this.names.has(ino));
    // Directories nest at most `depthMax` deep, so this ends; each round is one statement.
    while (level.length > 0) {
      const list = JSON.stringify(level);
      for (const ino of level) this.names.set(ino, []);
      for (const row of this.sql
        .exec<{ ino: number; parent: number; name: string }>(
          `SELECT ino, parent, name FROM dirents WHERE ino IN ${INOS} AND born_rev <= ?
           UNION ALL
           SELECT ino, parent, name FROM dirents_hist WHERE ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`,
          list,
          this.rev,
          list,
          this.rev,
          this.rev,
        )
        .toArray())
        this.names.get(row.ino)?.push({ parent: row.parent, name: row.name });
      const parents = new Set<number>();
      for (const ino of level)
        for (const { parent } of this.names.get(ino) ?? [])
          if (!this.names.has(parent) && !this.dirPaths.has(parent)) parents.add(parent);
      level = [...parents];
    }
  }

  private readonly dirPaths = new Map<number, string | null>([[ROOT_INO, ""]]);

  /**
   * The path of directory `dir` at R ("" for the root), or null when it was not reachable.
   * Remembered per tree, so a diff walking up many siblings asks SQL once per directory.
   */
  dirPath(dir: number): string | null {
    const known = this.dirPaths.get(dir);
    if (known !== undefined) return known;
    const name = this.namesOf(dir)[0];
    const path = name ? this.joined(this.dirPath(name.parent), name.name) : null;
    this.dirPaths.set(dir, path);
    return path;
  }

  /** Every path naming `ino` at R, sorted. */
  pathsOf(ino: number): string[] {
    return this.namesOf(ino)
      .map((name) => this.joined(this.dirPath(name.parent), name.name))
      .filter((path): path is string => path !== null)
      .sort();
  }

  private joined(dir: string | null, name: string): string | null {
    return dir === null ? null : `${dir}/${name}`;
  }
}
