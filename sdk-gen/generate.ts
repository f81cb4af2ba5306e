/**
 * `npm run gen:sdk`: writes everything generated from openapi/openapi.json for the SDKs
 * (run `npm run gen:openapi` first when routes changed):
 * - the TypeScript SDK's core (hey-api) and error classes, sdk-gen/typescript/src/generated/;
 * - the Python SDK's models, operations and error classes, sdk-gen/python/cubicle/_generated/;
 * - each SDK's per-method reference, docs/sdk/typescript.md and docs/sdk/python.md.
 * The SDKs are generated from the document, never from server code. Hand-written code lives
 * in each SDK's lib/. `npm run check` regenerates all of it into a temp dir and fails on drift.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@hey-api/openapi-ts";
import { generatePython } from "./python/generate.ts";
import { pythonReference } from "./python/generateReference.ts";
import { errorsSource, GENERATED_HEADER } from "./typescript/generateErrors.ts";
import { typescriptReference } from "./typescript/generateReference.ts";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const sdkGeneratedDir = join(repoRoot, "sdk-gen/typescript/src/generated");
const openApiPath = join(repoRoot, "openapi/openapi.json");

type Document = Record<string, unknown>;

type GenerateSdkOptions = {
  /** A path or an already parsed document; the drift check passes the freshly built one. */
  input?: string | Document;
  /** Print nothing unless generation fails. */
  quiet?: boolean;
};

/** Generates the TypeScript SDK's core into `outputDir`, which is emptied first. */
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

/** One generated file or directory: where it lives, and how to write it somewhere else. */
export interface GeneratedOutput {
  /** Relative to the repository root. */
  path: string;
  kind: "dir" | "file";
  write: (target: string, document: Document) => Promise<void>;
}

async function writeText(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

export const generatedOutputs: GeneratedOutput[] = [
  {
    path: "sdk-gen/typescript/src/generated",
    kind: "dir",
    write: (dir, document) => generateSdk(dir, { input: document, quiet: true }),
  },
  {
    path: "sdk-gen/python/cubicle/_generated",
    kind: "dir",
    write: (dir, document) => generatePython(dir, { input: document }),
  },
  // The references read the SDKs' sources, so they follow the committed generated code.
  { path: "docs/sdk/typescript.md", kind: "file", write: async (file) => writeText(file, await typescriptReference()) },
  { path: "docs/sdk/python.md", kind: "file", write: async (file) => writeText(file, await pythonReference()) },
];

if (import.meta.main) {
  const document = JSON.parse(await readFile(openApiPath, "utf8")) as Document;
  for (const output of generatedOutputs) {
    await output.write(join(repoRoot, output.path), document);
    console.log(`wrote ${output.path}${output.kind === "dir" ? "/" : ""}`);
  }
}
