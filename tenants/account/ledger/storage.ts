/**
 * `storage_byte_hours`, integrated exactly from the workspaces' size changes rather than
 * sampled. Each workspace keeps its current size, the time it was last integrated to, and
 * the byte-milliseconds gathered so far in the current hour (a decimal string: a terabyte
 * held for an hour is 4×10^18 byte-ms, past what a double holds exactly). When an hour
 * completes it becomes one event, `sbh:<workspace>:<hour>`, and the sub-byte-hour remainder
 * carries into the next hour, so the sum over any span is exact to within one byte-hour.
 */
import { HOUR_MS, hourStart } from "./periods.ts";

type Row = {
  workspace_id: string;
  size_bytes: number;
  revision: number;
  since_ms: number;
  hour_ms: number;
  acc: string;
  carry: number;
};

export interface StorageEvent {
  id: string;
  workspaceId: string;
  hourMs: number;
  quantity: number;
}

export class StorageMeter {
  /** Sum of the current sizes, for the storage cap; kept in memory beside the table. */
  totalBytes: number;

  constructor(private readonly sql: SqlStorage) {
    this.totalBytes = sql.exec<{ n: number | null }>("SELECT sum(size_bytes) AS n FROM storage").one().n ?? 0;
  }

  /**
   * A workspace's size is now `sizeBytes` as of its filesystem `revision`; older reports
   * (arriving late from a concurrent request) are integrated but do not move the size back.
   */
  change(workspaceId: string, sizeBytes: number, revision: number, nowMs: number, emit: (e: StorageEvent) => void) {
    const row = this.row(workspaceId);
    if (!row) {
      this.sql.exec(
        "INSERT INTO storage (workspace_id, size_bytes, revision, since_ms, hour_ms, acc, carry) VALUES (?, ?, ?, ?, ?, '0', 0)",
        workspaceId,
        sizeBytes,
        revision,
        nowMs,
        hourStart(nowMs),
      );
      this.totalBytes += sizeBytes;
      return;
    }
    this.integrate(row, nowMs, emit);
    if (revision >= row.revision) {
      this.totalBytes += sizeBytes - row.size_bytes;
      row.size_bytes = sizeBytes;
      row.revision = revision;
    }
    this.save(row);
  }

  /** Integrates every workspace up to `nowMs`, emitting the hours that completed. */
  advanceAll(nowMs: number, emit: (e: StorageEvent) => void) {
    for (const row of this.sql.exec<Row>("SELECT * FROM storage").toArray()) {
      this.integrate(row, nowMs, emit);
      this.save(row);
    }
  }

  /** Whether any workspace still has an hour to complete (so the alarm must come back). */
  pending(): boolean {
    return (
      this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM storage WHERE size_bytes > 0 OR acc != '0'").one().n > 0
    );
  }

  private integrate(row: Row, nowMs: number, emit: (e: StorageEvent) => void) {
    let acc = BigInt(row.acc);
    while (row.since_ms < nowMs) {
      const hourEnd = row.hour_ms + HOUR_MS;
      const until = Math.min(nowMs, hourEnd);
      acc += BigInt(row.size_bytes) * BigInt(until - row.since_ms);
      row.since_ms = until;
      if (until < hourEnd) break;
      const total = acc + BigInt(row.carry);
      const quantity = Number(total / BigInt(HOUR_MS));
      row.carry = Number(total % BigInt(HOUR_MS));
      if (quantity > 0) {
        emit({
          id: `sbh:${row.workspace_id}:${row.hour_ms}`,
          workspaceId: row.workspace_id,
          hourMs: row.hour_ms,
          quantity,
        });
      }
      acc = 0n;
      row.hour_ms = hourEnd;
      if (row.size_bytes === 0) {
        // Nothing more accrues: skip the idle hours, and drop the sub-byte-hour remainder.
        row.carry = 0;
        row.since_ms = Math.max(row.since_ms, nowMs);
        row.hour_ms = hourStart(row.since_ms);
      }
    }
    row.acc = acc.toString();
  }

  /** Rows stay after a workspace empties, so its revision keeps refusing late, older reports. */
  private save(row: Row) {
    this.sql.exec(
      "UPDATE storage SET size_bytes = ?, revision = ?, since_ms = ?, hour_ms = ?, acc = ?, carry = ? WHERE workspace_id = ?",
      row.size_bytes,
      row.revision,
      row.since_ms,
      row.hour_ms,
      row.acc,
      row.carry,
      row.workspace_id,
    );
  }

  private row(workspaceId: string): Row | undefined {
    return this.sql.exec<Row>("SELECT * FROM storage WHERE workspace_id = ?", workspaceId).toArray()[0];
  }
}
