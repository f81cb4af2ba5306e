/**
 * The dashboard's one stylesheet, served from /dashboard/assets/app.css (the CSP allows no
 * inline styles). System fonts only, no external requests; colours pass WCAG AA contrast on
 * white, and layouts collapse to one column at phone width.
 */

/**
 * Chart series colours, in stacking order (ui/Chart.tsx draws at most this many): Okabe and
 * Ito's colour-blind-safe set, darkened where needed for 3:1 against white (WCAG 1.4.11),
 * with grey last for "others".
 */
const SERIES_COLOURS = ["#0a58ca", "#c75300", "#00795a", "#b0457f", "#8a6d00", "#2a7fb8", "#6e7781"];

const seriesRules = SERIES_COLOURS.map(
  (colour, i) => `.chart rect.series-${i} { fill: ${colour}; } .swatch.series-${i} { background: ${colour}; }`,
).join("\n");

export const STYLESHEET = `
:root { --ink: #1b1f24; --muted: #4f5965; --line: #d0d7de; --panel: #f6f8fa; --accent: #0a58ca;
  --ok: #1a7f37; --warn: #9a6700; --bad: #b42318; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.5; }
a { color: var(--accent); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1.25rem;
  border-bottom: 1px solid var(--line); background: var(--panel); }
header .brand { font-weight: 700; font-size: 1.1rem; color: var(--ink); text-decoration: none; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
header .who { margin-left: auto; display: flex; gap: .75rem; align-items: center; color: var(--muted); font-size: .9rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1.25rem; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; background: #fff; }
.card .label { color: var(--muted); font-size: .85rem; }
.card .value { font-size: 1.5rem; font-weight: 700; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
meter.bar { width: 100%; min-width: 6rem; height: 1rem; }
.status-warn { color: var(--warn); font-weight: 600; }
.status-bad { color: var(--bad); font-weight: 600; }
form.inline { display: inline; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
fieldset { border: 1px solid var(--line); border-radius: .5rem; margin: .75rem 0; }
fieldset label { display: inline-flex; gap: .35rem; font-weight: 400; margin-right: 1rem; }
input[type=text], input[type=password], input[type=number], select { font: inherit; padding: .4rem .5rem;
  border: 1px solid #8c959f; border-radius: .375rem; width: 100%; max-width: 32rem; }
button { font: inherit; padding: .4rem .9rem; border-radius: .375rem; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.notice { border: 1px solid var(--line); border-left: .3rem solid var(--accent); padding: .75rem 1rem; background: var(--panel); margin: 1rem 0; }
.notice.error { border-left-color: var(--bad); }
.secret { font-family: ui-monospace, monospace; word-break: break-all; background: #fff; padding: .25rem .5rem; border: 1px dashed var(--line); }
pre { background: var(--panel); border: 1px solid var(--line); padding: .75rem; overflow: auto; max-height: 32rem; font-size: .85rem; }
.muted { color: var(--muted); }
.chart-figure { margin: 0 0 1rem; }
.chart { width: 100%; height: auto; display: block; }
.chart .axis { stroke: #8c959f; }
.chart text { fill: var(--muted); font-size: 11px; }
.chart rect.value { fill: var(--accent); stroke: #fff; stroke-width: .5; }
${seriesRules}
/* The chart is drawn wide and narrow (ui/Chart.tsx); each width shows the one whose text stays readable. */
.chart-narrow { display: none; }
@media (max-width: 40rem) { .chart-wide { display: none; } .chart-narrow { display: block; } }
.chart-legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: .35rem 0 0; padding: 0; font-size: .9rem; }
.swatch { display: inline-block; width: .85rem; height: .85rem; margin-right: .35rem; border-radius: 2px; vertical-align: -.1rem; }
.copyable { display: inline-flex; align-items: center; gap: .35rem; white-space: nowrap; }
code.short-id { white-space: nowrap; }
button.copy { padding: 0 .45rem; font-size: .8rem; line-height: 1.4; background: #fff; color: var(--accent); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) { header .who { margin-left: 0; } main { padding: .75rem; } .card .value { font-size: 1.25rem; } }
/* usage page */
.usage-filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 1rem; align-items: end; }
.usage-filters p { grid-column: 1 / -1; margin: .25rem 0 0; font-size: .9rem; }
.usage-submit { padding-bottom: .1rem; }
.usage-range { margin: 1rem 0; }
.usage-total { margin: 0 0 .5rem; }
.usage-total strong { font-size: 1.25rem; font-variant-numeric: tabular-nums; }
.usage-chart text { font-size: 12px; }
.usage-chart .grid { stroke: var(--line); }
.usage-breakdown { max-width: 48rem; }
.usage-id { display: block; font-weight: 400; font-size: .8rem; word-break: break-all; }
/* keys and billing pages */
input[type=date] { font: inherit; padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: .375rem; max-width: 100%; }
.hint { display: block; color: var(--muted); font-size: .875rem; font-weight: 400; margin: .25rem 0; }
fieldset label.unavailable { color: var(--muted); }
fieldset label .hint { display: inline; margin: 0; }
.tag { display: inline-block; margin-left: .4rem; padding: 0 .45rem; border: 1px solid var(--accent); border-radius: 1rem;
  color: var(--accent); font-size: .8rem; font-weight: 600; white-space: nowrap; }
ul.scopes { list-style: none; margin: 0; padding: 0; }
ul.scopes li { white-space: nowrap; }
.secret-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.secret-row .secret { flex: 1 1 16rem; min-width: 0; }
tfoot th, tfoot td { border-top: 2px solid var(--ink); font-weight: 700; color: var(--ink); }
/* The invoice is a table on wide screens and a list on phones (pages/billing.tsx NarrowInvoice). */
.invoice-narrow { display: none; list-style: none; margin: 0; padding: 0; }
.invoice-narrow li { display: grid; grid-template-columns: 1fr auto; gap: 0 1rem; padding: .4rem 0; border-bottom: 1px solid var(--line); }
.invoice-narrow .item { font-weight: 600; }
.invoice-narrow .amount { text-align: right; font-variant-numeric: tabular-nums; }
.invoice-narrow .note { grid-column: 1 / -1; color: var(--muted); font-size: .875rem; }
.invoice-narrow li.total { border-top: 2px solid var(--ink); border-bottom: 0; font-weight: 700; }
@media (max-width: 40rem) { .invoice-narrow { display: block; } .invoice-wide { display: none; } }
/* workspaces pages */
nav.breadcrumb ol { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0 0 .75rem; padding: 0; }
nav.breadcrumb li { overflow-wrap: anywhere; }
nav.breadcrumb li + li::before { content: "/"; color: var(--muted); margin-right: .25rem; }
nav.breadcrumb [aria-current="page"] { font-weight: 600; }
code.id, code.summary { overflow-wrap: anywhere; }
td > time { white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25rem 1rem; margin: 0 0 1rem; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
img.file-preview { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
iframe.pdf-preview { display: block; width: 100%; height: 80vh; min-height: 24rem; border: 1px solid var(--line); }
pre.file-preview, pre.run-output { white-space: pre-wrap; overflow-wrap: anywhere; }
pre.run-output .stderr { color: var(--bad); font-style: italic; }
/* timeline and diffs: the +/- of each line says what colour says, for readers who cannot tell them apart */
.event-note { display: block; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
td.change-added { color: var(--ok); font-weight: 600; }
td.change-deleted { color: var(--bad); font-weight: 600; }
td.change-modified { color: var(--warn); font-weight: 600; }
td.change-renamed { color: var(--accent); font-weight: 600; }
section.patch h3 { font-size: 1rem; margin: 1rem 0 .25rem; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
pre.diff { white-space: pre-wrap; overflow-wrap: anywhere; padding: .5rem 0; max-height: none; }
pre.diff span { display: block; padding: 0 .75rem; min-height: 1.2em; }
pre.diff .diff-add { background: #dafbe1; color: #0f3d1f; }
pre.diff .diff-del { background: #ffebe9; color: #6e1212; }
pre.diff .diff-hunk { background: #ddf4ff; color: #0a3069; }
pre.diff .diff-meta { font-weight: 600; }
`;

/** The little client script: copy buttons and confirmations. Pages work without it. */
export const SCRIPT = `
document.addEventListener("click", (event) => {
  const copy = event.target.closest("[data-copy]");
  if (!copy) return;
  const label = (copy.dataset.label ??= copy.textContent);
  const say = (text) => {
    copy.textContent = text;
    setTimeout(() => { copy.textContent = label; }, 2000);
  };
  // The clipboard needs a secure context (HTTPS or localhost); elsewhere the full id is in the title and links.
  if (!navigator.clipboard) return say("Copy failed");
  navigator.clipboard.writeText(copy.getAttribute("data-copy")).then(() => say("Copied"), () => say("Copy failed"));
});
// PDF previews: a sandboxed frame (ui/pdfViewer.ts) says "ready"; this page reads the file with the
// session and posts the bytes in, once. The frame has an opaque origin, so "*" is the only target.
for (const frame of document.querySelectorAll("iframe[data-pdf-src]")) {
  let sent = false;
  addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow || event.data !== "ready" || sent) return;
    sent = true;
    const bytes = await (await fetch(frame.getAttribute("data-pdf-src"))).arrayBuffer();
    frame.contentWindow.postMessage({ pdf: bytes }, "*", [bytes]);
  });
  frame.addEventListener("load", () => frame.contentWindow.postMessage("ping", "*"));
}
document.addEventListener("submit", (event) => {
  const question = event.target.getAttribute("data-confirm");
  if (question && !confirm(question)) event.preventDefault();
});
`;
