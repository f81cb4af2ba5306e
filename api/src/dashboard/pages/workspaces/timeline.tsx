/**
 * GET /dashboard/workspaces/:id/timeline: what happened to a workspace, newest first. Its
 * snapshots (the same `object.listSnapshots` as `GET …/snapshots`), its runs (the same
 * `object.listExecs` as `GET …/execs`) and its restores (the change log `GET …/fs/changes`
 * reads), each snapshot and restore linking to its diff. Snapshots and restores need
 * `workspaces:read`, runs `exec`; a missing scope shows its notice in place of those events.
 */
import { workspaceObject } from "../../../routes/filePath.ts";
import { requireWholeWorkspace } from "../../../workspaceAccess.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { bytes, dateTime } from "../../format.ts";
import { dashboardLimits } from "../../limits.ts";
import { CopyableId } from "../../ui/CopyableId.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { TableHead } from "../../ui/TableHead.tsx";
import { TableWrap } from "../../ui/TableWrap.tsx";
import { statusClass } from "./browser.tsx";
import { apiContext, Breadcrumb, countLabel, frameOf, hrefs, param, ScopeNotice, workspaceLabel } from "./shared.tsx";
import {
  mergeTimeline,
  restoreEvents,
  runEvents,
  type Source,
  snapshotEvents,
  type Timeline,
  type TimelineEvent,
} from "./timelineEvents.ts";

type WorkspaceStub = Awaited<ReturnType<typeof workspaceObject>>["object"];

export async function timelinePage(c: DashboardContext): Promise<Response> {
  const id = param(c, "id");
  // The access check comes first, so another tenant's id is a 404 whatever the scopes.
  const { object, prefix } = await workspaceObject(apiContext(c), id);
  requireWholeWorkspace(apiContext(c), "A workspace's timeline");
  const canRead = hasScope(c, "workspaces:read");
  const canExec = hasScope(c, "exec");
  const rowsMax = dashboardLimits.pageRowsMax;
  const [snapshots, runs, restores, label, frame] = await Promise.all([
    canRead ? object.listSnapshots(rowsMax) : null,
    canExec ? object.listExecs(rowsMax, undefined, prefix) : null,
    canRead ? recentRestores(object) : null,
    workspaceLabel(c, id),
    frameOf(c),
  ]);
  const sources: Source<TimelineEvent>[] = [];
  if (snapshots) sources.push(snapshotEvents({ items: snapshots.snapshots, more: snapshots.nextCursor !== null }));
  if (runs) sources.push(runEvents({ items: runs.data, more: runs.nextCursor !== null }));
  if (restores) sources.push(restores);
  const timeline = mergeTimeline(sources, rowsMax);
  const crumbs = [
    { label: "Workspaces", href: hrefs.list() },
    { label, href: hrefs.browse(id) },
    { label: "Timeline" },
  ];
  return c.html(
    <Layout title={`Timeline of ${label}`} section="workspaces" {...frame}>
      <Breadcrumb crumbs={crumbs} />
      <p class="muted">
        Snapshots, runs and restores, newest first. A snapshot links to what changed since it; a restore to what it set
        back.
      </p>
      {!canRead && <ScopeNotice scope="workspaces:read" what="Snapshots and restores" />}
      {!canExec && <ScopeNotice scope="exec" what="Runs" />}
      {(canRead || canExec) && <TimelineTable id={id} timeline={timeline} />}
    </Layout>,
  );
}

/** The restores among the newest entries of the change log, read as `GET …/fs/changes` reads them. */
async function recentRestores(object: WorkspaceStub): Promise<Source<TimelineEvent>> {
  const { revision } = await object.counters();
  const since = Math.max(0, revision - dashboardLimits.timelineChangesMax);
  const page = await object.changesSince(since, dashboardLimits.timelineChangesMax);
  return restoreEvents(page.changes, page.oldestRev <= since);
}

function TimelineTable({ id, timeline }: { id: string; timeline: Timeline }) {
  if (timeline.events.length === 0) {
    return (
      <p class="muted" data-empty="timeline">
        Nothing yet: no snapshot, run or restore. <code>POST /v1/workspaces/{id}/snapshots</code> takes a snapshot.
      </p>
    );
  }
  return (
    <>
      <TableWrap label="Timeline">
        <table id="timeline-table" aria-label="Timeline">
          <TableHead columns={["When", "Event", "Details", "Changes"]} />
          <tbody>
            {timeline.events.map((event) => (
              <EventRow id={id} event={event} />
            ))}
          </tbody>
        </table>
      </TableWrap>
      {timeline.cut && (
        <p class="notice" data-timeline-cut>
          Older events are left off. The workspace page pages through older runs; <code>GET …/snapshots</code> lists
          every snapshot, and <code>GET …/fs/changes</code> the change log with its restores.
        </p>
      )}
    </>
  );
}

function EventRow({ id, event }: { id: string; event: TimelineEvent }) {
  const when = new Date(event.atMs).toISOString();
  const cells = (() => {
    if (event.kind === "snapshot") return <SnapshotCells id={id} event={event} />;
    if (event.kind === "run") return <RunCells id={id} run={event.run} />;
    return <RestoreCells id={id} event={event} />;
  })();
  const key =
    event.kind === "snapshot"
      ? { "data-snapshot-id": event.snapshot.id }
      : event.kind === "run"
        ? { "data-exec-id": event.run.id }
        : { "data-revision": event.revision };
  return (
    <tr data-event={event.kind} {...key}>
      <td>
        <time datetime={when}>{dateTime(when)}</time>
      </td>
      {cells}
    </tr>
  );
}

function SnapshotCells({ id, event }: { id: string; event: Extract<TimelineEvent, { kind: "snapshot" }> }) {
  const { snapshot, runId } = event;
  return (
    <>
      <th scope="row">Snapshot{snapshot.name !== null && <span class="muted"> “{snapshot.name}”</span>}</th>
      <td>
        <CopyableId id={snapshot.id} noun="snapshot" /> · revision {snapshot.revision} ·{" "}
        {countLabel(snapshot.fileCount, "file")} · {bytes(snapshot.sizeBytes)}
        {runId !== null && (
          <>
            {" "}
            · taken before run <CopyableId id={runId} noun="run" href={hrefs.run(id, runId)} />
          </>
        )}
        {snapshot.description !== null && runId === null && <span class="event-note">{snapshot.description}</span>}
      </td>
      <td>
        <a href={hrefs.diff(id, snapshot.id, "live")} data-diff>
          Changes since
        </a>
      </td>
    </>
  );
}

function RunCells({ id, run }: { id: string; run: Extract<TimelineEvent, { kind: "run" }>["run"] }) {
  return (
    <>
      <th scope="row">Run</th>
      <td>
        <CopyableId id={run.id} noun="run" href={hrefs.run(id, run.id)} /> · {run.executor} ·{" "}
        <span class={statusClass(run.status)}>{run.status}</span>
        {run.exitCode !== null && ` (exit ${run.exitCode})`}
        <code class="summary event-note">{run.summary}</code>
      </td>
      <td>—</td>
    </>
  );
}

function RestoreCells({ id, event }: { id: string; event: Extract<TimelineEvent, { kind: "restore" }> }) {
  return (
    <>
      <th scope="row">Restore</th>
      <td>
        revision {event.revision}
        {event.restoredTo !== null && <> · back to {restoredLabel(event.restoredTo)}</>} ·{" "}
        {countLabel(event.changedPaths, "path")} set back
      </td>
      <td>
        {/* The revision before a restore is what it replaced: the diff across it is what the restore did. */}
        <a href={hrefs.diff(id, event.revision - 1, event.revision)} data-diff>
          What it changed
        </a>
      </td>
    </>
  );
}

/** A restore's target as the timeline names it: the snapshot's id, or "revision N". */
function restoredLabel(to: string): string {
  return to.startsWith("snap_") ? to : `revision ${to}`;
}
