/**
 * Copies the files the Worker serves as static assets out of node_modules into
 * .build/assets (gitignored). wrangler runs this before `dev` and `deploy` ([build] in
 * wrangler.toml); the test setup runs it too. Nothing is fetched from a CDN at run time.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
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
