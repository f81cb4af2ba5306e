/**
 * GET /dashboard/workspaces/:id/diff?from=&to=: what changed between two versions (snapshot
 * ids, revisions or `live`), through the same `object.diff` call as `GET …/diff`. The file
 * list names each change (added, modified, deleted, renamed, with sizes); below it the
 * unified patch of the text files, drawn as a diff: removed lines red, added lines green.
 * The patch is asked for only when the changed files are few and small enough to read on
 * a page; otherwise the list stands alone and points at the API, which has the whole patch.
 */
import type { DiffEntry, DiffSide } from "../../../../../tenants/workspace/vfs/versions/diff.ts";
import { ApiError } from "../../../errors.ts";
import { orThrow } from "../../../fsErrors.ts";
import { workspaceObject } from "../../../routes/filePath.ts";
import { VersionRef } from "../../../routes/versions.ts";
import { requireWholeWorkspace } from "../../../workspaceAccess.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { bytes, shortId } from "../../format.ts";
import { dashboardLimits } from "../../limits.ts";
import { Layout } from "../../ui/Layout.tsx";
import { TableHead } from "../../ui/TableHead.tsx";
import { TableWrap } from "../../ui/TableWrap.tsx";
import { type PatchSection, patchSections } from "./patch.ts";
import { apiContext, Breadcrumb, countLabel, frameOf, hrefs, param, ScopeNotice, workspaceLabel } from "./shared.tsx";

type WorkspaceStub = Awaited<ReturnType<typeof workspaceObject>>["object"];

interface Shown {
  from: number;
  to: number;
  entries: DiffEntry[];
  truncated: boolean;
  /** The patch's sections, or null when the page left the patch to the API. */
  sections: PatchSection[] | null;
}

/** A version from the query, checked as the API checks `from` and `to`. */
function versionParam(c: DashboardContext, name: string, fallback?: string): string {
  const value = c.req.query(name) || fallback;
  const parsed = VersionRef.safeParse(value);
  if (!parsed.success) {
    throw new ApiError("validation_failed", `\`${name}\` must be a snapshot id, a revision number or \`live\``);
  }
  return parsed.data;
}

export async function diffPage(c: DashboardContext): Promise<Response> {
  const id = param(c, "id");
  const { object } = await workspaceObject(apiContext(c), id);
  requireWholeWorkspace(apiContext(c), "A diff");
  const from = versionParam(c, "from");
  const to = versionParam(c, "to", "live");
  const label = await workspaceLabel(c, id);
  const crumbs = [
    { label: "Workspaces", href: hrefs.list() },
    { label, href: hrefs.browse(id) },
    { label: "Timeline", href: hrefs.timeline(id) },
    { label: "Diff" },
  ];
  const title = `Changes from ${versionLabel(from)} to ${versionLabel(to)}`;
  if (!hasScope(c, "workspaces:read")) {
    return c.html(
      <Layout title={title} section="workspaces" {...(await frameOf(c))}>
        <Breadcrumb crumbs={crumbs} />
        <ScopeNotice scope="workspaces:read" what="Diffs" />
      </Layout>,
      403,
    );
  }
  const [shown, frame] = await Promise.all([diffOf(object, from, to), frameOf(c)]);
  return c.html(
    <Layout title={title} section="workspaces" {...frame}>
      <Breadcrumb crumbs={crumbs} />
      <p class="muted" data-from={shown.from} data-to={shown.to}>
        From revision {shown.from} {from.startsWith("snap_") && `(${from}) `}to revision {shown.to}
        {to === "live" && " (the live files)"}: {countLabel(shown.entries.length, "path")} changed.
      </p>
      <ChangedFiles entries={shown.entries} sections={shown.sections} />
      {shown.truncated && (
        <p class="notice" data-diff-truncated>
          More paths changed than one diff lists; the list stops at {shown.entries.length.toLocaleString("en-US")}.
        </p>
      )}
      <Patch id={id} from={from} to={to} shown={shown} />
    </Layout>,
  );
}

/** How a title names a version: "revision 12", a short snapshot id, or "the live files". */
function versionLabel(ref: string): string {
  if (ref === "live") return "the live files";
  return ref.startsWith("snap_") ? shortId(ref) : `revision ${ref}`;
}

/** The file list, then the patch when the changed files fit the page's limits. */
async function diffOf(object: WorkspaceStub, from: string, to: string): Promise<Shown> {
  const { ok: _ok, ...listed } = orThrow(await object.diff(from, to, false));
  const textBytes = listed.entries.reduce((sum, e) => sum + sideBytes(e.before) + sideBytes(e.after), 0);
  const fits =
    listed.entries.length <= dashboardLimits.diffPatchFilesMax && textBytes <= dashboardLimits.diffPatchBytesMax;
  if (!fits) return { ...listed, sections: null };
  // Asked again with the patch: the live tree may have moved since, and list and patch must agree.
  const { ok: _ok2, patch, ...withPatch } = orThrow(await object.diff(from, to, true));
  return { ...withPatch, sections: patchSections(patch ?? "") };
}

function sideBytes(side: DiffSide | undefined): number {
  return side?.type === "file" ? side.size : 0;
}

function sizeOf(side: DiffSide | undefined): string {
  if (!side) return "—";
  if (side.type === "dir") return "directory";
  if (side.type === "symlink") return `→ ${side.target ?? ""}`;
  return bytes(side.size);
}

function ChangedFiles({ entries, sections }: { entries: DiffEntry[]; sections: PatchSection[] | null }) {
  if (entries.length === 0) return <p data-empty="diff">No changes between these versions.</p>;
  const anchors = new Map((sections ?? []).map((section, i) => [section.path, `patch-${i}`]));
  return (
    <>
      <h2 id="files">Changed files</h2>
      <TableWrap label="Changed files">
        <table aria-labelledby="files" id="diff-files">
          <TableHead columns={["Change", "Path", { label: "Before", num: true }, { label: "After", num: true }]} />
          <tbody>
            {entries.map((entry) => {
              const anchor = anchors.get(entry.path);
              const path = entry.previousPath === undefined ? entry.path : `${entry.previousPath} → ${entry.path}`;
              return (
                <tr data-path={entry.path} data-status={entry.status}>
                  <td class={`change-${entry.status}`}>{entry.status}</td>
                  <th scope="row">{anchor === undefined ? path : <a href={`#${anchor}`}>{path}</a>}</th>
                  <td class="num">{sizeOf(entry.before)}</td>
                  <td class="num">{sizeOf(entry.after)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function Patch({ id, from, to, shown }: { id: string; from: string; to: string; shown: Shown }) {
  const api = `GET /v1/workspaces/${id}/diff?from=${from}&to=${to}&format=patch`;
  if (shown.sections === null) {
    return (
      <p class="notice" data-patch-left-out>
        The patch is left out: over {dashboardLimits.diffPatchFilesMax} files or{" "}
        {bytes(dashboardLimits.diffPatchBytesMax)} of changed files. The API has it: <code>{api}</code>
      </p>
    );
  }
  if (shown.sections.length === 0) return null;
  return (
    <>
      <h2 id="patch">Patch</h2>
      <p class="muted">
        Removed lines are red and start with a minus (-), added lines green and start with a plus (+).
      </p>
      {shown.sections.map((section, i) => (
        <section class="patch" aria-labelledby={`patch-${i}`} data-patch-path={section.path}>
          <h3 id={`patch-${i}`}>{section.path}</h3>
          <pre class="diff">
            {section.lines.map((line) => (
              <span class={`diff-${line.kind}`}>{line.text}</span>
            ))}
          </pre>
        </section>
      ))}
    </>
  );
}
