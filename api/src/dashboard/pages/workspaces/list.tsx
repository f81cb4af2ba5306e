/**
 * GET /dashboard/workspaces: the tenant's workspaces, oldest first, a page at a time,
 * through the same `workspaces.list` call as `GET /v1/workspaces` (and the same
 * `workspaceIds` restriction of the session's key).
 */
import type { Workspace } from "../../../../../tenants/workspace/workspaces.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { bytes, dateTime } from "../../format.ts";
import { dashboardLimits } from "../../limits.ts";
import { CopyableId } from "../../ui/CopyableId.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { TableHead } from "../../ui/TableHead.tsx";
import { TableWrap } from "../../ui/TableWrap.tsx";
import { frameOf, hrefs, ID_CURSOR_LENGTH_MAX, queryParam, ScopeNotice } from "./shared.tsx";

export async function workspacesListPage(c: DashboardContext): Promise<Response> {
  const frame = await frameOf(c);
  if (!hasScope(c, "workspaces:read")) {
    return c.html(
      <Layout title="Workspaces" section="workspaces" {...frame}>
        <ScopeNotice scope="workspaces:read" what="Workspaces" />
      </Layout>,
      403,
    );
  }
  const principal = c.get("principal");
  const cursor = queryParam(c, "cursor", ID_CURSOR_LENGTH_MAX);
  const page = await c.var.services.workspaces.list(principal.tenantId, {
    limit: dashboardLimits.pageRowsMax,
    cursor,
    ids: principal.workspaceIds,
  });
  return c.html(
    <Layout title="Workspaces" section="workspaces" {...frame}>
      <WorkspacesTable workspaces={page.data} />
      {page.nextCursor !== null && (
        <p>
          <a href={hrefs.list(page.nextCursor)} rel="next" data-next-cursor={page.nextCursor}>
            Next page
          </a>
        </p>
      )}
    </Layout>,
  );
}

function WorkspacesTable({ workspaces }: { workspaces: Workspace[] }) {
  if (workspaces.length === 0) {
    return (
      <p class="muted" data-empty="workspaces">
        No workspaces here yet. <code>POST /v1/workspaces</code> creates one.
      </p>
    );
  }
  return (
    <TableWrap label="Workspaces">
      <table id="workspaces-table" aria-label="Workspaces">
        <TableHead columns={["Name", "ID", { label: "Files", num: true }, { label: "Size", num: true }, "Created"]} />
        <tbody>
          {workspaces.map((workspace) => (
            <tr
              data-workspace-id={workspace.id}
              data-file-count={workspace.fileCount}
              data-size-bytes={workspace.sizeBytes}
            >
              <th scope="row">
                <a href={hrefs.browse(workspace.id)}>{workspace.name ?? "(unnamed)"}</a>
              </th>
              <td>
                <CopyableId id={workspace.id} noun="workspace" />
              </td>
              <td class="num">{workspace.fileCount.toLocaleString("en-US")}</td>
              <td class="num">{bytes(workspace.sizeBytes)}</td>
              <td>
                <time datetime={workspace.createdAt}>{dateTime(workspace.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
