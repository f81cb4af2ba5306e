/**
 * Copies the files the Worker serves as static assets out of node_modules into
 * .build/assets (gitignored). wrangler runs this before `dev` and `deploy` ([build] in
 * wrangler.toml); the test setup runs it too. Nothing is fetched from a CDN at run time.
 */
import { copyFileSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const swaggerDir = dirname(require.resolve("swagger-ui-dist/package.json"));
const docsAssets = join(root, ".build/assets/docs/assets");

mkdirSync(docsAssets, { recursive: true });
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"]) {
  copyFileSync(join(swaggerDir, file), join(docsAssets, file));
}
// validatorUrl: null stops Swagger UI from sending the spec to validator.swagger.io.
writeFileSync(
  join(docsAssets, "init.js"),
  `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#reference", validatorUrl: null, deepLinking: true });\n`,
);

// PDF.js for the dashboard's PDF previews, run in a sandboxed frame (api/src/dashboard/ui/pdfViewer.ts).
// Its fonts, character maps and image decoders come along so any PDF renders without a CDN;
// its PDF-script engine (quickjs) is left out on purpose: previews never run a PDF's scripts.
const pdfjsDir = dirname(require.resolve("pdfjs-dist/package.json"));
const pdfjsAssets = join(root, ".build/assets/dashboard/pdfjs");
const PDFJS_FILES = [
  "build/pdf.min.mjs",
  "build/pdf.worker.min.mjs",
  "wasm/jbig2.wasm",
  "wasm/jbig2_nowasm_fallback.js",
  "wasm/openjpeg.wasm",
  "wasm/openjpeg_nowasm_fallback.js",
  "wasm/qcms_bg.wasm",
  "LICENSE",
];
for (const file of PDFJS_FILES) {
  mkdirSync(dirname(join(pdfjsAssets, file)), { recursive: true });
  copyFileSync(join(pdfjsDir, file), join(pdfjsAssets, file));
}
for (const dir of ["standard_fonts", "cmaps"]) {
  cpSync(join(pdfjsDir, dir), join(pdfjsAssets, dir), { recursive: true });
}
// The preview frame has an opaque origin (sandboxed), so its module imports and font
// fetches are cross-origin requests: these public files say any origin may read them.
writeFileSync(
  join(root, ".build/assets/_headers"),
  "/dashboard/pdfjs/*\n  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n",
);
