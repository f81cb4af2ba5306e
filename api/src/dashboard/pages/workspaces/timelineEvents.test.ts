import { describe, expect, it } from "vitest";
import type { ExecRecord } from "../../../../../tenants/workspace/execs/records.ts";
import type { Snapshot } from "../../../../../tenants/workspace/vfs/versions/snapshots.ts";
import { mergeTimeline, restoreEvents, runEvents, snapshotEvents, type TimelineEvent } from "./timelineEvents.ts";

const at = (ms: number) => new Date(ms).toISOString();

function snapshot(id: string, ms: number, description: string | null = null): Snapshot {
  const execId = /^before (ex_\w+)$/.exec(description ?? "")?.[1] ?? null;
  return {
    id,
    revision: 1,
    name: null,
    description,
    createdAt: at(ms),
    sizeBytes: 0,
    fileCount: 0,
    actor: null,
    execId,
  };
}

function run(id: string, ms: number): ExecRecord {
  return { id, startedAt: at(ms) } as ExecRecord;
}

const label = (event: TimelineEvent) =>
  event.kind === "snapshot" ? event.snapshot.id : event.kind === "run" ? event.run.id : `r${event.revision}`;

describe("mergeTimeline", () => {
  it("orders every source's events newest first, a snapshot after the run it was taken before", () => {
    const timeline = mergeTimeline(
      [
        snapshotEvents({ items: [snapshot("snap_b", 30, "before ex_2"), snapshot("snap_a", 10)], more: false }),
        runEvents({ items: [run("ex_2", 30), run("ex_1", 20)], more: false }),
        restoreEvents(
          [
            { rev: 4, at: at(25), op: "write", paths: ["/a"], actor: null },
            { rev: 5, at: at(40), op: "restore", paths: ["/a", "/b"], actor: null },
          ],
          false,
        ),
      ],
      100,
    );
    expect(timeline.events.map(label)).toEqual(["r5", "ex_2", "snap_b", "ex_1", "snap_a"]);
    expect(timeline.cut).toBe(false);
    const restore = timeline.events[0];
    expect(restore?.kind === "restore" && restore.changedPaths).toBe(2);
    const before = timeline.events[2];
    expect(before?.kind === "snapshot" && before.runId).toBe("ex_2");
  });

  it("leaves off events older than what a cut-short source reached, and says so", () => {
    // The runs were read down to 50: a run older than that may exist unread, so the
    // snapshot at 20 cannot be shown as if nothing happened between it and 50.
    const timeline = mergeTimeline(
      [
        snapshotEvents({ items: [snapshot("snap_new", 60), snapshot("snap_old", 20)], more: false }),
        runEvents({ items: [run("ex_3", 70), run("ex_2", 50)], more: true }),
      ],
      100,
    );
    expect(timeline.events.map(label)).toEqual(["ex_3", "snap_new", "ex_2"]);
    expect(timeline.cut).toBe(true);
  });

  it("reads the change log's reach from its oldest entry read", () => {
    const source = restoreEvents([{ rev: 9, at: at(35), op: "write", paths: [], actor: null }], true);
    const timeline = mergeTimeline([source, snapshotEvents({ items: [snapshot("snap_x", 30)], more: false })], 100);
    expect(timeline.events).toEqual([]);
    expect(timeline.cut).toBe(true);
  });

  it("stops at the page's rows", () => {
    const runs = Array.from({ length: 5 }, (_, i) => run(`ex_${i}`, 100 - i));
    const timeline = mergeTimeline([runEvents({ items: runs, more: false })], 3);
    expect(timeline.events.map(label)).toEqual(["ex_0", "ex_1", "ex_2"]);
    expect(timeline.cut).toBe(true);
  });
});
