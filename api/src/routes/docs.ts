import type { App } from "../context.ts";

/**
 * The API reference UI (Swagger UI). Its script and styles are copied from the
 * `swagger-ui-dist` package into the Worker's static assets at build time
 * (scripts/build-assets.ts), so the page makes no request outside this origin.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cubicle API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

export function registerDocs(app: App) {
  app.get("/docs", (c) => c.html(PAGE));
}
