/**
 * The esbuild settings every sandbox bundle shares (the shell guest, the javascript
 * runtime and its ws:git module): one ES module for the Worker Loader, `node:*` and
 * `cloudflare:workers` left to the isolate (it has nodejs_compat), browser builds of
 * dependencies (just-bash, isomorphic-git), and isomorphic-git's bare `buffer` import
 * pointed at executors/git/nodeBuffer.ts (mapping it to node:buffer fails in workerd).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function bundleGuest(entry: string, options: { keepNames?: boolean } = {}): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    minify: true,
    keepNames: options.keepNames ?? false,
    conditions: ["browser"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:workers", "node:*"],
    alias: { buffer: join(root, "executors/git/nodeBuffer.ts") },
    legalComments: "none",
    logLevel: "warning",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced no output for ${entry}`);
  return output.contents;
}
