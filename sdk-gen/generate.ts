/**
 * Writes the TypeScript SDK's generated half, sdk-gen/typescript/src/generated/, from the
 * committed openapi/openapi.json (`npm run gen:sdk`; run `npm run gen:openapi` first when
 * routes changed). The SDK is generated from the document, never from server code, so it
 * imports nothing from api/ or tenants/. Hand-written helpers live in src/lib/.
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@hey-api/openapi-ts";
import { errorsSource, GENERATED_HEADER } from "./typescript/generateErrors.ts";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const sdkGeneratedDir = join(repoRoot, "sdk-gen/typescript/src/generated");
const openApiPath = join(repoRoot, "openapi/openapi.json");

type GenerateSdkOptions = {
  /** A path or an already parsed document; the drift check passes the freshly built one. */
  input?: string | Record<string, unknown>;
  /** Print nothing unless generation fails. */
  quiet?: boolean;
};

/** Generates the SDK into `outputDir`, which is emptied first. */
export async function generateSdk(outputDir: string, { input = openApiPath, quiet = false }: GenerateSdkOptions = {}) {
  await createClient({
    input,
    output: {
      path: outputDir,
      // Node ESM and `allowImportingTsExtensions` both want explicit extensions; `.ts`
      // lets Node 24 run the SDK straight from source, as it runs the rest of the repo.
      module: { extension: ".ts" },
      clean: true,
      header: GENERATED_HEADER,
    },
    plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
    // No log files in the repo: problems surface as thrown errors.
    logs: { file: false, level: quiet ? "silent" : "info" },
  });
  const document = typeof input === "string" ? JSON.parse(await readFile(input, "utf8")) : input;
  await writeFile(join(outputDir, "errors.gen.ts"), errorsSource(document));
}

if (import.meta.main) {
  await generateSdk(sdkGeneratedDir);
  console.log(`wrote ${sdkGeneratedDir.slice(repoRoot.length + 1)}/`);
}
