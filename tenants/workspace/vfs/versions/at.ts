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
    return this.sql
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
