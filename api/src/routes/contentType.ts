/**
 * The media type a shared file is served with, by its extension: a small table of what
 * agents produce and people open in a browser, rather than a dependency carrying a
 * thousand types nobody shares. Anything not listed is `application/octet-stream`, which
 * browsers download instead of rendering.
 *
 * Types a browser would run script in (HTML, SVG, XML) keep their real type, so a shared
 * report renders, but are served under a CSP sandbox (`sharedFileHeaders`): the page gets
 * an opaque origin with scripts off, so it cannot act on the API's origin (the dashboard's
 * session cookie lives there) or run at all. Every shared file gets `nosniff`, which stops a
 * browser from deciding that a `.txt` is HTML after all.
 */

const TYPES: Record<string, string> = {
  // Text: UTF-8, which is what agents write.
  txt: "text/plain; charset=utf-8",
  log: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  ts: "text/plain; charset=utf-8",
  py: "text/plain; charset=utf-8",
  sh: "text/plain; charset=utf-8",
  yaml: "text/yaml; charset=utf-8",
  yml: "text/yaml; charset=utf-8",
  toml: "text/plain; charset=utf-8",
  json: "application/json",
  xml: "application/xml",
  // Images, documents, media, archives.
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  webm: "video/webm",
  wasm: "application/wasm",
  zip: "application/zip",
  gz: "application/gzip",
  tgz: "application/gzip",
  tar: "application/x-tar",
};

export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

export function contentTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  return TYPES[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}

/** Types a browser runs script in when it renders them. */
const ACTIVE = new Set(["text/html", "image/svg+xml", "application/xml", "application/xhtml+xml"]);

/**
 * Headers for a shared file of `contentType`. Active types get a CSP `sandbox` (no
 * `allow-scripts`, no `allow-same-origin`), the part that matters; `default-src 'none'`
 * with inline styles and `data:` images lets a self-contained report render but not fetch
 * anything, so it cannot beacon to a third party either. Other types do not get `sandbox`:
 * Chrome refuses to show a PDF in a sandboxed document, and with `nosniff` nothing else
 * renders as a page. `no-referrer` keeps the link's token out of Referer headers when a
 * reader follows a link inside the page.
 */
export function sharedFileHeaders(contentType: string): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": contentType,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-robots-tag": "noindex",
  };
  if (ACTIVE.has(contentType.split(";")[0] as string)) {
    headers["content-security-policy"] =
      "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; media-src data:";
  }
  return headers;
}
