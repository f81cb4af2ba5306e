/**
 * The PDF preview: a page of its own that renders a PDF with PDF.js, always inside a
 * sandboxed frame. Workspace content is anyone's bytes, so the frame is built to contain a
 * hostile PDF (or a PDF.js bug it triggers):
 *
 * - the `<iframe sandbox="allow-scripts">` and this page's own `Content-Security-Policy:
 *   sandbox allow-scripts` each give it an opaque origin: no cookies, no storage, no reach
 *   into the dashboard page or its session, no forms, popups or top-level navigation;
 * - its CSP allows scripts only from this origin (PDF.js and the viewer below, never a
 *   PDF's own scripts: the PDF-script engine is not even shipped) and no fetch anywhere but
 *   PDF.js's own font and decoder files;
 * - it never fetches the file: the dashboard page (same origin, with the session) reads the
 *   bytes and posts them in, so the frame needs no credentials at all.
 *
 * Browsers' built-in PDF viewers refuse to run in a sandboxed frame, hence PDF.js.
 */
import { dashboardLimits } from "../limits.ts";

/** The frame's policy. `origin` is the dashboard's, named outright: a sandboxed document's `'self'` is not portable. */
export function pdfViewerPolicy(origin: string): string {
  return [
    "sandbox allow-scripts",
    "default-src 'none'",
    // PDF.js decodes some images with WebAssembly, compiled from its own files.
    `script-src ${origin}/dashboard/assets/ ${origin}/dashboard/pdfjs/ 'wasm-unsafe-eval'`,
    `style-src ${origin}/dashboard/assets/`,
    `connect-src ${origin}/dashboard/pdfjs/`,
    "img-src blob: data:",
    "font-src blob: data:",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export const PDF_VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>PDF preview</title>
<link rel="stylesheet" href="/dashboard/assets/pdf-viewer.css">
<script type="module" src="/dashboard/assets/pdf-viewer.js"></script>
</head>
<body>
<p id="status" role="status">Loading the preview…</p>
<div id="pages"></div>
</body>
</html>
`;

export const PDF_VIEWER_CSS = `
body { margin: 0; padding: 8px; background: #eaeef2; font: 14px system-ui, sans-serif; color: #1b1f24; }
#status { margin: 0 0 8px; }
canvas { display: block; width: 100%; height: auto; margin: 0 0 8px; background: #fff; box-shadow: 0 1px 3px rgba(0,0,0,.25); }
`;

/**
 * The frame's script. It tells the dashboard page it is ready ("ready", also in answer to
 * its "ping", whichever comes first), takes one PDF as an ArrayBuffer from its parent, and
 * draws the first pages to canvases the width of the frame. pdf.js runs its worker code in
 * this thread: an opaque-origin frame may not start a Worker from another origin.
 */
export const PDF_VIEWER_SCRIPT = `
import * as pdfjs from "/dashboard/pdfjs/build/pdf.min.mjs";
import * as worker from "/dashboard/pdfjs/build/pdf.worker.min.mjs";

globalThis.pdfjsWorker = worker;
const PAGES_MAX = ${dashboardLimits.pdfPreviewPagesMax};
const base = new URL("/dashboard/pdfjs/", import.meta.url).href;
const status = document.getElementById("status");
let started = false;

async function render(data) {
  const pdf = await pdfjs.getDocument({
    data,
    enableXfa: false,
    cMapUrl: base + "cmaps/",
    standardFontDataUrl: base + "standard_fonts/",
    wasmUrl: base + "wasm/",
  }).promise;
  const count = Math.min(pdf.numPages, PAGES_MAX);
  const width = document.documentElement.clientWidth - 16;
  for (let n = 1; n <= count; n++) {
    const page = await pdf.getPage(n);
    const scale = (width / page.getViewport({ scale: 1 }).width) * (globalThis.devicePixelRatio || 1);
    const viewport = page.getViewport({ scale });
    const canvas = document.createElement("canvas");
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "Page " + n + " of " + pdf.numPages);
    document.getElementById("pages").append(canvas);
    await page.render({ canvas, viewport }).promise;
  }
  const pages = pdf.numPages === 1 ? "1 page" : pdf.numPages + " pages";
  status.textContent = count < pdf.numPages ? "The first " + count + " of " + pages + "; download the file for the rest." : pages;
  document.body.dataset.rendered = String(count);
  document.body.dataset.pages = String(pdf.numPages);
}

addEventListener("message", (event) => {
  if (event.source !== parent) return;
  if (event.data === "ping") return parent.postMessage("ready", "*");
  if (started || !(event.data && event.data.pdf instanceof ArrayBuffer)) return;
  started = true;
  render(event.data.pdf).catch((error) => {
    status.textContent = "This PDF could not be shown: " + (error && error.message);
    document.body.dataset.failed = "true";
  });
});
parent.postMessage("ready", "*");
`;
