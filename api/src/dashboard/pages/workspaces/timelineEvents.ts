/**
 * The workspace timeline's events, newest first: snapshots, runs and restores, each read
 * from the service the API reads it from (snapshots and runs from their lists, restores
 * from the change log). Each source is read newest first up to a bound; an event older
 * than what a cut-short source reached is left off, since that source may hold a newer one
 * not read, so the page never shows a gap as if it were the past.
 */
import type { ExecRecord } from "../../../../../tenants/workspace/execs/records.ts";
import type { Change } from "../../../../../tenants/workspace/vfs/changes.ts";
import type { Snapshot } from "../../../../../tenants/workspace/vfs/versions/snapshots.ts";

export type TimelineEvent =
  | {
      kind: "snapshot";
      atMs: number;
      snapshot: Snapshot /** The run it was taken before (`snapshot: "before"`). */;
      runId: string | null;
    }
  | { kind: "run"; atMs: number; run: ExecRecord }
  | {
      kind: "restore";
      atMs: number;
      revision: number;
      changedPaths: number;
      /** The version it went back to (a snapshot id, or a revision as text); null for restores logged before it was recorded. */
      restoredTo: string | null;
    };

/** One source's events, newest first, and whether it holds older ones than those read. */
export interface Source<T> {
  items: T[];
  more: boolean;
  /** When `more`: the time down to which this source was read. */
  reachedMs?: number;
}

export interface Timeline {
  events: TimelineEvent[];
  /** True when events were left off: past the page's rows, or older than a source was read. */
  cut: boolean;
}

/** The description `exec` gives the snapshot it takes before a run (WorkspaceDO.exec). */
const BEFORE_RUN = /^before (ex_[0-9a-z]+)$/;

export function snapshotEvents(source: Source<Snapshot>): Source<TimelineEvent> {
  const items = source.items.map((snapshot): TimelineEvent => {
    // Snapshots taken before schema version 6 name their run only in the description.
    const runId = snapshot.execId ?? BEFORE_RUN.exec(snapshot.description ?? "")?.[1] ?? null;
    return { kind: "snapshot", atMs: Date.parse(snapshot.createdAt), snapshot, runId };
  });
  return withReach(items, source.more);
}

export function runEvents(source: Source<ExecRecord>): Source<TimelineEvent> {
  const items = source.items.map((run): TimelineEvent => ({ kind: "run", atMs: Date.parse(run.startedAt), run }));
  return withReach(items, source.more);
}

/**
 * The restores among a stretch of the change log (oldest first, as the log answers), and
 * how far back that stretch reached when older entries exist.
 */
export function restoreEvents(changes: Change[], more: boolean): Source<TimelineEvent> {
  const items = changes
    .filter((change) => change.op === "restore")
    .reverse()
    .map(
      (change): TimelineEvent => ({
        kind: "restore",
        atMs: Date.parse(change.at),
        revision: change.rev,
        changedPaths: change.paths.length,
        restoredTo: change.restoredTo ?? null,
      }),
    );
  const oldest = changes[0];
  return more && oldest ? { items, more, reachedMs: Date.parse(oldest.at) } : { items, more: false };
}

function withReach(items: TimelineEvent[], more: boolean): Source<TimelineEvent> {
  const last = items.at(-1);
  return more && last ? { items, more, reachedMs: last.atMs } : { items, more: false };
}

/** Newest first; at equal times a snapshot comes after the run it was taken before, as it happened. */
export function mergeTimeline(sources: Source<TimelineEvent>[], rowsMax: number): Timeline {
  const floorMs = Math.max(...sources.map((s) => (s.more ? (s.reachedMs ?? Number.POSITIVE_INFINITY) : -Infinity)));
  const all = sources.flatMap((s) => s.items).sort((a, b) => b.atMs - a.atMs || rank(a) - rank(b));
  const kept = all.filter((event) => event.atMs >= floorMs);
  return {
    events: kept.slice(0, rowsMax),
    cut: kept.length > rowsMax || kept.length < all.length || floorMs > -Infinity,
  };
}

const rank = (event: TimelineEvent) => (event.kind === "snapshot" ? 1 : 0);
