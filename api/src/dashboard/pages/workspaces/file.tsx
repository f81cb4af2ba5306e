/**
 * One file: GET /dashboard/workspaces/:id/file?path= previews it (UTF-8 text up to the
 * preview limit, one of four raster image types by magic bytes, a PDF drawn in a sandboxed
 * frame by PDF.js (ui/pdfViewer.ts), else its size), and
 * GET …/raw?path=[&download=1] serves its exact bytes, read by the same `object.readFile`
 * call as `GET /v1/workspaces/{id}/files/{path}`. Bytes go out as octet-stream (or as
 * their image type when previewed) with nosniff, never as HTML or script.
 */
import type { Stat } from "../../../../../tenants/workspace/vfs/store.ts";
import { ApiError } from "../../../errors.ts";
import { orThrow } from "../../../fsErrors.ts";
import { workspaceObject, workspacePath } from "../../../routes/filePath.ts";
import { loadWorkspace } from "../../../workspaceAccess.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { bytes, dateTime, shortId } from "../../format.ts";
import { dashboardLimits } from "../../limits.ts";
import { Layout } from "../../ui/Layout.tsx";
import { attachmentDisposition, type ImageType, imageType, isPdf, MAGIC_BYTES, peek, utf8Text } from "./content.ts";
import {
  apiContext,
  Breadcrumb,
  frameOf,
  fsCodeOf,
  hrefs,
  param,
  pathCrumbs,
  problemPage,
  ScopeNotice,
} from "./shared.tsx";

type Preview =
  | { kind: "text"; text: string }
  | { kind: "image"; type: ImageType }
  | { kind: "pdf" }
  | { kind: "large"; limitBytes: number }
  | { kind: "binary" };

function previewOf(head: Uint8Array, size: number): Preview {
  const type = imageType(head);
  if (type !== null) return { kind: "image", type };
  if (isPdf(head)) {
    const limitBytes = dashboardLimits.pdfPreviewBytesMax;
    return size <= limitBytes ? { kind: "pdf" } : { kind: "large", limitBytes };
  }
  if (size > dashboardLimits.previewBytesMax) return { kind: "large", limitBytes: dashboardLimits.previewBytesMax };
  const text = utf8Text(head);
  return text === null ? { kind: "binary" } : { kind: "text", text };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The page's workspace and normalised `path`, and the workspace object after the access check (404 for another tenant's). */
async function fileTarget(c: DashboardContext) {
  const id = param(c, "id");
  const path = workspacePath(c.req.query("path") ?? "/", { allowRoot: true });
  const access = await workspaceObject(apiContext(c), id);
  return { id, path, ...access };
}

/** A directory asked for as a file: 409, with the way to browse it. */
function directoryPage(c: DashboardContext, id: string, path: string) {
  return problemPage(
    c,
    new ApiError("conflict", `${path} is a directory, not a file.`),
    <p>
      <a href={hrefs.browse(id, path)}>Browse {path}</a>
    </p>,
  );
}

export async function filePreviewPage(c: DashboardContext): Promise<Response> {
  const { id, path, object, prefix } = await fileTarget(c);
  if (!hasScope(c, "workspaces:read")) {
    return c.html(
      <Layout title={baseName(path) || path} section="workspaces" {...(await frameOf(c))}>
        <Breadcrumb crumbs={pathCrumbs(id, shortId(id), path)} />
        <ScopeNotice scope="workspaces:read" what="Files" />
      </Layout>,
      403,
    );
  }
  // At most the preview limit is read: enough for text that fits, and for any image's magic bytes.
  const [read, workspace, frame] = await Promise.all([
    object.readFile(path, { length: dashboardLimits.previewBytesMax }, prefix),
    loadWorkspace(apiContext(c), id),
    frameOf(c),
  ]);
  if (fsCodeOf(read) === "EISDIR") return directoryPage(c, id, path);
  const { stat, body } = orThrow(read);
  const head = new Uint8Array(await new Response(body).arrayBuffer());
  const name = baseName(path);
  return c.html(
    <Layout title={name} section="workspaces" {...frame}>
      <Breadcrumb crumbs={pathCrumbs(id, workspace.name ?? shortId(id), path)} />
      <FileFacts stat={stat as Stat} />
      <p>
        <a href={hrefs.raw(id, path, true)} data-download>
          Download {name}
        </a>
      </p>
      <h2 id="preview">Preview</h2>
      <PreviewOf id={id} path={path} name={name} size={stat.size} preview={previewOf(head, stat.size)} />
    </Layout>,
  );
}

function FileFacts({ stat }: { stat: Stat }) {
  return (
    <dl class="facts" data-size-bytes={stat.size} data-etag={stat.etag ?? ""} data-mtime={stat.mtime}>
      <dt>Size</dt>
      <dd>
        {bytes(stat.size)} ({stat.size.toLocaleString("en-US")} bytes)
      </dd>
      <dt>ETag</dt>
      <dd>
        <code class="id">{stat.etag ?? "—"}</code>
      </dd>
      <dt>Modified</dt>
      <dd>
        <time datetime={stat.mtime}>{dateTime(stat.mtime)}</time>
      </dd>
    </dl>
  );
}

function PreviewOf(props: { id: string; path: string; name: string; size: number; preview: Preview }) {
  const { id, path, name, size, preview } = props;
  switch (preview.kind) {
    case "text":
      return (
        <pre class="file-preview" data-preview="text">
          {preview.text}
        </pre>
      );
    case "image":
      return (
        <img class="file-preview" data-preview="image" data-type={preview.type} src={hrefs.raw(id, path)} alt={name} />
      );
    case "pdf":
      // The frame gets the bytes from this page (see app.js), never the session: see ui/pdfViewer.ts.
      return (
        <iframe
          class="pdf-preview"
          data-preview="pdf"
          sandbox="allow-scripts"
          referrerpolicy="no-referrer"
          src="/dashboard/assets/pdf-viewer.html"
          data-pdf-src={hrefs.raw(id, path)}
          title={`Preview of ${name}`}
        />
      );
    case "large":
      return (
        <p class="muted" data-preview="none">
          Not previewed: {size.toLocaleString("en-US")} bytes is over the {bytes(preview.limitBytes)} preview limit.
          Download it instead.
        </p>
      );
    case "binary":
      return (
        <p class="muted" data-preview="binary">
          No preview for this kind of file ({size.toLocaleString("en-US")} bytes, not text, an image or a PDF). Download
          it instead.
        </p>
      );
  }
}

export async function rawFile(c: DashboardContext): Promise<Response> {
  const { id, path, object, prefix } = await fileTarget(c);
  if (!hasScope(c, "workspaces:read")) return c.text("This session's API key lacks the workspaces:read scope.", 403);
  const read = await object.readFile(path, {}, prefix);
  if (fsCodeOf(read) === "EISDIR") return directoryPage(c, id, path);
  const { stat, body, start, end } = orThrow(read);
  const download = c.req.query("download") === "1";
  const headers: Record<string, string> = {
    "content-type": "application/octet-stream",
    "x-content-type-options": "nosniff",
    // Opened on its own, the file is a sandboxed document that may load and run nothing.
    "content-security-policy": "default-src 'none'; sandbox",
    etag: stat.etag ?? "",
    "last-modified": new Date(stat.mtime).toUTCString(),
  };
  let bytes = body;
  if (download) {
    headers["content-disposition"] = attachmentDisposition(baseName(path));
  } else {
    // Shown inline only as an image the bytes prove they are; the first chunk is put back in front.
    const peeked = await peek(body, MAGIC_BYTES);
    bytes = peeked.body;
    headers["content-type"] = imageType(peeked.head) ?? "application/octet-stream";
  }
  // A fixed-length stream lets workerd send Content-Length instead of chunked encoding.
  return new Response(bytes.pipeThrough(new FixedLengthStream(end - start)), { headers });
}
