/**
 * WorkspaceDO: one per workspace, named `<tenantId>:<workspaceId>` by the gateway from the
 * verified credential. This first version stores whole files as 512 KiB chunks in the
 * object's SQLite, enough to prove the path from the API to durable storage; the full
 * POSIX filesystem replaces the file store behind the same methods.
 *
 * Expected failures (ENOENT, EISDIR) are returned as values, because wrangler dev logs any
 * error thrown across RPC as uncaught even when the caller handles it.
 */
import { DurableObject } from "cloudflare:workers";
import { hex } from "../hash.ts";
import { workspaceLimits } from "./limits.ts";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    etag TEXT NOT NULL,
    mtime TEXT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS chunks (
    owner TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (owner, seq)
  )`,
];

export interface FileStat {
  path: string;
  size: number;
  etag: string;
  mtime: string;
}

export interface WorkspaceStats {
  sizeBytes: number;
  fileCount: number;
}

export type PutResult = { ok: true; file: FileStat; stats: WorkspaceStats } | { ok: false; code: "EFBIG" };
export type GetResult = { ok: true; file: FileStat; body: ReadableStream<Uint8Array> } | { ok: false; code: "ENOENT" };

export class WorkspaceDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
  }

  /**
   * Streams a file in. Chunks land under a private upload name first and replace the old
   * file in one synchronous transaction at the end, so a reader never sees half a file and
   * an upload cut off midway leaves the previous version intact.
   */
  async putFile(path: string, body: ReadableStream<Uint8Array>): Promise<PutResult> {
    const sql = this.ctx.storage.sql;
    const upload = `upload:${crypto.randomUUID()}`;
    const digest = new crypto.DigestStream("SHA-256");
    const hasher = digest.getWriter();
    let size = 0;
    let seq = 0;
    let pending: Uint8Array = new Uint8Array(0);
    const flush = (bytes: Uint8Array) => {
      sql.exec("INSERT INTO chunks (owner, seq, data) VALUES (?, ?, ?)", upload, seq++, bytes);
    };
    try {
      for await (const part of body) {
        size += part.byteLength;
        if (size > workspaceLimits.fileBytesMax) {
          sql.exec("DELETE FROM chunks WHERE owner = ?", upload);
          return { ok: false, code: "EFBIG" };
        }
        await hasher.write(part);
        pending = concat(pending, part);
        while (pending.byteLength >= workspaceLimits.chunkBytes) {
          flush(pending.subarray(0, workspaceLimits.chunkBytes));
          pending = pending.slice(workspaceLimits.chunkBytes);
        }
      }
    } catch (error) {
      sql.exec("DELETE FROM chunks WHERE owner = ?", upload);
      throw error;
    }
    if (pending.byteLength > 0) flush(pending);
    await hasher.close();
    const hash = hex(new Uint8Array(await digest.digest));
    const file: FileStat = { path, size, etag: `"${hash.slice(0, 32)}"`, mtime: new Date().toISOString() };
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM chunks WHERE owner = ?", path);
      sql.exec("UPDATE chunks SET owner = ? WHERE owner = ?", path, upload);
      sql.exec(
        "INSERT OR REPLACE INTO files (path, size, etag, mtime) VALUES (?, ?, ?, ?)",
        file.path,
        file.size,
        file.etag,
        file.mtime,
      );
    });
    return { ok: true, file, stats: this.stats() };
  }

  getFile(path: string): GetResult {
    const file = this.ctx.storage.sql
      .exec<Record<keyof FileStat, string | number>>("SELECT * FROM files WHERE path = ?", path)
      .toArray()[0];
    if (!file) return { ok: false, code: "ENOENT" };
    const sql = this.ctx.storage.sql;
    let seq = 0;
    // Chunks are read one at a time as the consumer pulls, so a large file never sits in memory whole.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const row = sql
          .exec<{ data: ArrayBuffer }>("SELECT data FROM chunks WHERE owner = ? AND seq = ?", path, seq++)
          .toArray()[0];
        if (row) controller.enqueue(new Uint8Array(row.data));
        else controller.close();
      },
    });
    return { ok: true, file: file as unknown as FileStat, body };
  }

  stats(): WorkspaceStats {
    const row = this.ctx.storage.sql
      .exec<{ sizeBytes: number; fileCount: number }>(
        "SELECT coalesce(sum(size), 0) AS sizeBytes, count(*) AS fileCount FROM files",
      )
      .one();
    return { sizeBytes: row.sizeBytes, fileCount: row.fileCount };
  }

  /** Deletes every file and record; the object is empty afterwards. */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
