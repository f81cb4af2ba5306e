/**
 * Exec records and their durable output, in the workspace object's SQLite. Output is a
 * sequence of numbered events (stdout, stderr, then one exit event) stored as it is
 * produced, so a client can always read or resume from any sequence number, during or
 * after the run. Every executor's runs are recorded here the same way.
 */

import type { EgressPolicy } from "../../../container/wire/egress/allowList.ts";
import {
  type ExecConflict,
  type ExecOutcome,
  type ExecStatus,
  type ExecStopReason,
  exitCodes,
  type OutputPiece,
  type OutputStream,
  type WorkspaceMount,
} from "../../../executors/contract.ts";
import { execLimits } from "../../../executors/limits.ts";
import { migrateSchema, type SqlStatement } from "../../sqlMigrations.ts";

/**
 * The exec tables' schema, step by step (tenants/sqlMigrations.ts), versioned in `meta` as
 * `exec_schema_version` beside the filesystem's own schema.
 */
export const EXEC_STEPS: readonly (readonly SqlStatement[])[] = [
  [
    `CREATE TABLE execs (
      id TEXT PRIMARY KEY,
      executor TEXT NOT NULL,
      summary TEXT NOT NULL,
      status TEXT NOT NULL,
      exit_code INTEGER,
      error TEXT,
      started_ms INTEGER NOT NULL,
      ended_ms INTEGER,
      output_bytes INTEGER NOT NULL DEFAULT 0,
      truncated INTEGER NOT NULL DEFAULT 0,
      next_seq INTEGER NOT NULL DEFAULT 1,
      result TEXT,
      key_id TEXT,
      output_max INTEGER NOT NULL
    )`,
    "CREATE INDEX execs_started ON execs (started_ms)",
    `CREATE TABLE exec_output (
      exec_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      stream TEXT NOT NULL,
      data BLOB NOT NULL,
      PRIMARY KEY (exec_id, seq)
    ) WITHOUT ROWID`,
  ],
  // v2: the path prefix a run was confined to, so a confined credential sees only such runs.
  ["ALTER TABLE execs ADD COLUMN path_prefix TEXT"],
  // v3: what the run could reach (its egress policy as JSON; NULL for no network).
  ["ALTER TABLE execs ADD COLUMN egress TEXT"],
  // v4: which resource limit ended the run (`memory_limit`, `pids_limit`), NULL for none.
  ["ALTER TABLE execs ADD COLUMN reason TEXT"],
  // v5: how a container run's workspace was mounted (`native`, `fuse`), NULL for other executors.
  ["ALTER TABLE execs ADD COLUMN mount TEXT"],
  // v6: the container's conflicts (JSON `[{ path, savedAs }]`), NULL for none.
  ["ALTER TABLE execs ADD COLUMN conflicts TEXT"],
];

/** Creates and upgrades the exec tables, in one transaction. */
export function migrateExecs(storage: DurableObjectStorage): void {
  migrateSchema(storage, { versionKey: "exec_schema_version", steps: EXEC_STEPS });
}

export type ExecState = "running" | ExecStatus;

export interface ExecRecord {
  id: string;
  executor: string;
  /** The first line of the command (or module), for lists. */
  summary: string;
  status: ExecState;
  exitCode: number | null;
  error: string | null;
  /** Which resource limit ended the run, or null. */
  reason: ExecStopReason | null;
  /** container runs: how the workspace was mounted; null for other executors. */
  mount: WorkspaceMount | null;
  /** container runs: paths the box and the workspace both changed, and where the box's version went. */
  conflicts: ExecConflict[];
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  outputBytes: number;
  truncated: boolean;
  /** The sequence number the next output event will get; the exit event's is `nextSeq - 1` once ended. */
  nextSeq: number;
  /** javascript: the module's return value as JSON text (kept as text so RPC types stay shallow). */
  resultJson?: string;
  /**
   * The path prefix the run's credential was confined to (its files were too), or null.
   * A confined credential sees only runs confined at or under its own prefix: the output
   * of any other run may show files it cannot read.
   */
  pathPrefix: string | null;
  /**
   * What the run could reach, as the request says it: false (no network, also for runs
   * recorded before this was kept), true (any public host), or the normalised allow list.
   */
  egress: boolean | { allow: string[] };
}

export interface OutputEvent {
  seq: number;
  stream: OutputStream | "exit";
  data: Uint8Array;
}

/** A run just ended: the events its end wrote (the kept output, then the exit event), and its record. */
export interface Finished {
  events: OutputEvent[];
  record: ExecRecord;
}

type Row = {
  id: string;
  executor: string;
  summary: string;
  status: string;
  exit_code: number | null;
  error: string | null;
  reason: string | null;
  mount: string | null;
  conflicts: string | null;
  started_ms: number;
  ended_ms: number | null;
  output_bytes: number;
  truncated: number;
  next_seq: number;
  result: string | null;
  key_id: string | null;
  output_max: number;
  path_prefix: string | null;
  egress: string | null;
};

const TRUNCATION_MARKER = (bytes: number) =>
  new TextEncoder().encode(`\n[cubicle: output truncated after ${bytes} bytes; the run continues]\n`);

export class ExecRecords {
  constructor(
    private readonly sql: SqlStorage,
    private readonly nowMs: () => number = Date.now,
  ) {}

  create(
    id: string,
    executor: string,
    source: string,
    keyId: string | null,
    outputBytesMax: number,
    pathPrefix: string | null = null,
    egress: EgressPolicy | null = null,
  ): void {
    const summary = (source.split("\n")[0] ?? "").slice(0, 200);
    this.sql.exec(
      `INSERT INTO execs (id, executor, summary, status, started_ms, key_id, output_max, path_prefix, egress)
       VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
      id,
      executor,
      summary,
      this.nowMs(),
      keyId,
      Math.min(outputBytesMax, execLimits.outputBytesMax),
      pathPrefix,
      egress === null ? null : JSON.stringify(egress),
    );
  }

  get(id: string): ExecRecord | null {
    const row = this.sql.exec<Row>("SELECT * FROM execs WHERE id = ?", id).toArray()[0];
    return row ? toRecord(row) : null;
  }

  /** Newest first; `before` is the `startedAt`-ordered cursor (an exec id). */
  list(
    limit: number,
    before?: string,
    within: string | null = null,
  ): { data: ExecRecord[]; nextCursor: string | null } {
    const cursor = before ? this.sql.exec<Row>("SELECT * FROM execs WHERE id = ?", before).toArray()[0] : undefined;
    // Only runs confined at or under `within` (see ExecRecord.pathPrefix); substr, not LIKE, so `_` and `%` in a name are plain.
    const confined = "(path_prefix = ? OR substr(path_prefix, 1, length(?) + 1) = ? || '/')";
    const where = [cursor ? "(started_ms, id) < (?, ?)" : null, within === null ? null : confined].filter(Boolean);
    const rows = this.sql
      .exec<Row>(
        `SELECT * FROM execs ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY started_ms DESC, id DESC LIMIT ?`,
        ...(cursor ? [cursor.started_ms, cursor.id] : []),
        ...(within === null ? [] : [within, within, within]),
        limit + 1,
      )
      .toArray();
    const page = rows.slice(0, limit).map(toRecord);
    return { data: page, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
  }

  /**
   * Stores one piece of output; returns the events written (none once the cap is reached,
   * the marker once when it is crossed). Synchronous: durable when the caller's output
   * gate opens.
   */
  append(id: string, stream: OutputStream, data: Uint8Array): OutputEvent[] {
    const row = this.running(id);
    if (!row) return [];
    const events = this.store(row, stream, data);
    this.sql.exec(
      "UPDATE execs SET next_seq = ?, output_bytes = ?, truncated = ? WHERE id = ?",
      row.next_seq,
      row.output_bytes,
      row.truncated,
      id,
    );
    return events;
  }

  /**
   * Ends a run: the output the executor kept for its answer (`tail`), its status, and the
   * exit event as the last output event. Only the first call counts; a later one answers
   * null. Answers the events written and the record as it now stands.
   */
  finish(id: string, outcome: ExecOutcome, tail: readonly OutputPiece[] = []): Finished | null {
    const row = this.running(id);
    if (!row) return null;
    const events = tail.flatMap((piece) => this.store(row, piece.stream, piece.data));
    const now = this.nowMs();
    const exit = {
      seq: row.next_seq,
      stream: "exit" as const,
      data: new TextEncoder().encode(
        JSON.stringify({
          status: outcome.status,
          exitCode: outcome.exitCode,
          durationMs: now - row.started_ms,
          ...(outcome.reason ? { reason: outcome.reason } : {}),
          ...(outcome.conflicts?.length ? { conflicts: outcome.conflicts } : {}),
        }),
      ),
    };
    this.insert(id, exit);
    events.push(exit);
    const ended = this.sql
      .exec<Row>(
        `UPDATE execs SET status = ?, exit_code = ?, error = ?, reason = ?, mount = ?, conflicts = ?, ended_ms = ?,
           next_seq = ?, output_bytes = ?, truncated = ?, result = ? WHERE id = ? RETURNING *`,
        outcome.status,
        outcome.exitCode,
        outcome.error ?? null,
        outcome.reason ?? null,
        outcome.mount ?? null,
        outcome.conflicts?.length ? JSON.stringify(outcome.conflicts) : null,
        now,
        exit.seq + 1,
        row.output_bytes,
        row.truncated,
        outcome.result === undefined ? null : JSON.stringify(outcome.result),
        id,
      )
      .one();
    return { events, record: toRecord(ended) };
  }

  private running(id: string): Row | null {
    const row = this.sql.exec<Row>("SELECT * FROM execs WHERE id = ?", id).toArray()[0];
    return row?.status === "running" ? row : null;
  }

  /** Writes a piece of a running run's output as events, and moves `row` past them (the caller saves it). */
  private store(row: Row, stream: OutputStream, data: Uint8Array): OutputEvent[] {
    if (row.truncated) return [];
    const room = row.output_max - row.output_bytes;
    const kept = data.byteLength > room ? data.subarray(0, room) : data;
    const events: OutputEvent[] = [];
    let seq = row.next_seq;
    for (let offset = 0; offset < kept.byteLength; offset += execLimits.outputPieceBytesMax) {
      events.push({ seq: seq++, stream, data: kept.subarray(offset, offset + execLimits.outputPieceBytesMax) });
    }
    const truncated = data.byteLength > room;
    if (truncated) events.push({ seq: seq++, stream: "stderr", data: TRUNCATION_MARKER(row.output_max) });
    for (const event of events) this.insert(row.id, event);
    row.next_seq = seq;
    row.output_bytes += kept.byteLength;
    row.truncated = truncated ? 1 : 0;
    return events;
  }

  private insert(id: string, event: OutputEvent): void {
    this.sql.exec(
      "INSERT INTO exec_output (exec_id, seq, stream, data) VALUES (?, ?, ?, ?)",
      id,
      event.seq,
      event.stream,
      event.data,
    );
  }

  output(id: string, after: number, limit: number = execLimits.outputPageMax): OutputEvent[] {
    return this.sql
      .exec<{ seq: number; stream: string; data: ArrayBuffer }>(
        "SELECT seq, stream, data FROM exec_output WHERE exec_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        id,
        after,
        limit,
      )
      .toArray()
      .map((r) => ({ seq: r.seq, stream: r.stream as OutputEvent["stream"], data: new Uint8Array(r.data) }));
  }

  /** Runs a previous instance left `running` cannot still be running: the object restarted under them. */
  abandonRunning(): string[] {
    const ids = this.sql
      .exec<{ id: string }>("SELECT id FROM execs WHERE status = 'running'")
      .toArray()
      .map((r) => r.id);
    for (const id of ids)
      this.finish(id, {
        status: "failed",
        exitCode: exitCodes.killed,
        error: "the workspace restarted during the run",
      });
    return ids;
  }

  /** Drops records (and output) beyond the newest `recordsKept` or older than `recordAgeMsMax`; never running ones. */
  prune(): number {
    const cutoff = this.nowMs() - execLimits.recordAgeMsMax;
    const victims = this.sql
      .exec<{ id: string }>(
        `SELECT id FROM execs WHERE status != 'running' AND (started_ms < ? OR id NOT IN
           (SELECT id FROM execs ORDER BY started_ms DESC, id DESC LIMIT ?))`,
        cutoff,
        execLimits.recordsKept,
      )
      .toArray();
    for (const { id } of victims) {
      this.sql.exec("DELETE FROM exec_output WHERE exec_id = ?", id);
      this.sql.exec("DELETE FROM execs WHERE id = ?", id);
    }
    return victims.length;
  }
}

function toRecord(row: Row): ExecRecord {
  const record: ExecRecord = {
    id: row.id,
    executor: row.executor,
    summary: row.summary,
    status: row.status as ExecState,
    exitCode: row.exit_code,
    error: row.error,
    reason: row.reason as ExecStopReason | null,
    mount: row.mount as WorkspaceMount | null,
    conflicts: row.conflicts === null ? [] : (JSON.parse(row.conflicts) as ExecConflict[]),
    startedAt: new Date(row.started_ms).toISOString(),
    endedAt: row.ended_ms === null ? null : new Date(row.ended_ms).toISOString(),
    durationMs: row.ended_ms === null ? null : row.ended_ms - row.started_ms,
    outputBytes: row.output_bytes,
    truncated: row.truncated === 1,
    nextSeq: row.next_seq,
    pathPrefix: row.path_prefix,
    egress: egressOf(row.egress),
  };
  if (row.result !== null) record.resultJson = row.result;
  return record;
}

/** The stored policy in the request's shape: false, true, or `{ allow }`. */
function egressOf(stored: string | null): ExecRecord["egress"] {
  if (stored === null) return false;
  const { allow } = JSON.parse(stored) as EgressPolicy;
  return allow === null ? true : { allow };
}
