/**
 * GET /dashboard/workspaces/:id?path=/dir: one directory of a workspace (the same
 * `object.list` call as `GET /v1/workspaces/{id}/fs/list`) and, below it, the workspace's
 * recent runs (the same `object.listExecs` call as `GET /v1/workspaces/{id}/execs`). Each
 * half needs its scope; without it the page shows a notice in its place.
 */

import type { ExecRecord } from "../../../../../tenants/workspace/execs/records.ts";
import { workspaceLimits } from "../../../../../tenants/workspace/limits.ts";
import type { Stat } from "../../../../../tenants/workspace/vfs/store.ts";
import { ApiError } from "../../../errors.ts";
import { orThrow } from "../../../fsErrors.ts";
import { workspaceObject, workspacePath } from "../../../routes/filePath.ts";
import { loadWorkspace } from "../../../workspaceAccess.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { bytes, dateTime, shortId } from "../../format.ts";
import { dashboardLimits } from "../../limits.ts";
import { CopyableId } from "../../ui/CopyableId.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { TableHead } from "../../ui/TableHead.tsx";
import { TableWrap } from "../../ui/TableWrap.tsx";
import {
  apiContext,
  Breadcrumb,
  countLabel,
  durationLabel,
  frameOf,
  fsCodeOf,
  hrefs,
  ID_CURSOR_LENGTH_MAX,
  param,
  pathCrumbs,
  problemPage,
  queryParam,
  ScopeNotice,
} from "./shared.tsx";

type Listing = { entries: Stat[]; nextCursor: string | null };
type Runs = { data: ExecRecord[]; nextCursor: string | null };

export async function workspaceBrowserPage(c: DashboardContext): Promise<Response> {
  const id = param(c, "id");
  const path = workspacePath(c.req.query("path") ?? "/", { allowRoot: true });
  const cursor = queryParam(c, "cursor", workspaceLimits.pathLengthMax);
  const runsCursor = queryParam(c, "runs", ID_CURSOR_LENGTH_MAX);
  // The access check comes first, so another tenant's id is a 404 whatever the scopes.
  const { object, prefix } = await workspaceObject(apiContext(c), id);
  const canRead = hasScope(c, "workspaces:read");
  const canExec = hasScope(c, "exec");
  const [workspace, listed, runs, frame] = await Promise.all([
    canRead ? loadWorkspace(apiContext(c), id) : null,
    canRead ? object.list(path, { limit: dashboardLimits.pageRowsMax, cursor }, prefix) : null,
    canExec ? object.listExecs(dashboardLimits.pageRowsMax, runsCursor, prefix) : null,
    frameOf(c),
  ]);
  if (listed !== null && fsCodeOf(listed) === "ENOTDIR") {
    return problemPage(
      c,
      new ApiError("conflict", `${path} is a file, not a directory.`),
      <p>
        <a href={hrefs.file(id, path)}>Preview {path}</a>
      </p>,
    );
  }
  const files = listed === null ? null : (orThrow(listed) as Listing);
  const label = workspace?.name ?? shortId(id);
  return c.html(
    <Layout title={label} section="workspaces" {...frame}>
      <Breadcrumb crumbs={pathCrumbs(id, label, path)} />
      <p class="muted" data-workspace-id={id}>
        <CopyableId id={id} noun="workspace" />
        {workspace && ` · ${countLabel(workspace.fileCount, "file")} · ${bytes(workspace.sizeBytes)}`} ·{" "}
        <a href={hrefs.timeline(id)}>Timeline</a>
      </p>
      <h2 id="files">Files in {path}</h2>
      {files === null ? (
        <ScopeNotice scope="workspaces:read" what="Files" />
      ) : (
        <FilesTable id={id} path={path} files={files} />
      )}
      <h2 id="runs">Recent runs</h2>
      {runs === null ? <ScopeNotice scope="exec" what="Runs" /> : <RunsTable id={id} path={path} runs={runs as Runs} />}
    </Layout>,
  );
}

function entryHref(id: string, entry: Stat): string {
  return entry.type === "dir" ? hrefs.browse(id, entry.path) : hrefs.file(id, entry.path);
}

function FilesTable({ id, path, files }: { id: string; path: string; files: Listing }) {
  if (files.entries.length === 0) return <p class="muted">This directory is empty.</p>;
  return (
    <>
      <TableWrap label="Files">
        <table aria-labelledby="files" id="files-table" data-path={path}>
          <TableHead columns={["Type", "Name", { label: "Size", num: true }, "Modified"]} />
          <tbody>
            {files.entries.map((entry) => (
              <tr data-entry={entry.path} data-type={entry.type} data-size-bytes={entry.size}>
                <td>{entry.type === "dir" ? "directory" : entry.type}</td>
                <th scope="row">
                  <a href={entryHref(id, entry)}>{entry.name}</a>
                  {entry.target !== undefined && <span class="muted"> → {entry.target}</span>}
                </th>
                <td class="num">{entry.type === "dir" ? "—" : bytes(entry.size)}</td>
                <td>
                  <time datetime={entry.mtime}>{dateTime(entry.mtime)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {files.nextCursor !== null && (
        <p>
          <a href={hrefs.browse(id, path, { cursor: files.nextCursor })} rel="next" data-next-cursor={files.nextCursor}>
            Next page of files
          </a>
        </p>
      )}
    </>
  );
}

function RunsTable({ id, path, runs }: { id: string; path: string; runs: Runs }) {
  if (runs.data.length === 0) return <p class="muted">No runs in the last 7 days.</p>;
  return (
    <>
      <TableWrap label="Recent runs">
        <table aria-labelledby="runs" id="runs-table">
          <TableHead
            columns={[
              "Run",
              "Executor",
              "Summary",
              "Status",
              { label: "Exit code", num: true },
              "Started",
              { label: "Duration", num: true },
            ]}
          />
          <tbody>
            {runs.data.map((run) => (
              <tr data-exec-id={run.id} data-status={run.status} data-exit-code={run.exitCode ?? ""}>
                <th scope="row">
                  {/* The id, not the summary: a command is not a name, and may repeat a file's. */}
                  <CopyableId id={run.id} noun="run" href={hrefs.run(id, run.id)} />
                </th>
                <td>{run.executor}</td>
                <td>
                  <code class="summary">{run.summary}</code>
                </td>
                <td class={statusClass(run.status)}>{run.status}</td>
                <td class="num">{run.exitCode ?? "—"}</td>
                <td>
                  <time datetime={run.startedAt}>{dateTime(run.startedAt)}</time>
                </td>
                <td class="num">{durationLabel(run.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {runs.nextCursor !== null && (
        <p>
          <a href={`${hrefs.browse(id, path, { runs: runs.nextCursor })}#runs`} rel="next">
            Older runs
          </a>
        </p>
      )}
    </>
  );
}

export function statusClass(status: string): string | undefined {
  if (status === "running" || status === "completed") return undefined;
  return status === "cancelled" ? "status-warn" : "status-bad";
}
