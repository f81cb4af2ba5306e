/**
 * Writes the Python SDK's generated half, sdk-gen/python/cubicle/_generated/, from the committed
 * openapi/openapi.json (`npm run gen:sdk`). Like the TypeScript SDK it is generated from the
 * document alone; hand-written code lives in cubicle/lib/. The output is a pure function of the
 * document (no dates, no environment), so the drift check can compare it byte for byte.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { emitErrors } from "./generator/errors.ts";
import { emitModels } from "./generator/models.ts";
import { HEADER } from "./generator/names.ts";
import { readOperations } from "./generator/operations.ts";
import { emitOperations } from "./generator/operationsEmit.ts";
import { type Document, SchemaReader } from "./generator/schema.ts";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const pythonGeneratedDir = join(repoRoot, "sdk-gen/python/cubicle/_generated");
const openApiPath = join(repoRoot, "openapi/openapi.json");

/** The generated files, by name, for a document. */
export function renderPython(document: Document): Record<string, string> {
  const reader = new SchemaReader(document);
  reader.readComponents();
  const operations = readOperations(document, reader);
  // Operations register their inline models first, so models.py is rendered last.
  const operationsPy = emitOperations(operations, reader.registry);
  return {
    "__init__.py": `${[...HEADER, '"""Generated from openapi/openapi.json: models, operations and errors."""'].join("\n")}\n`,
    "errors.py": emitErrors(document as Parameters<typeof emitErrors>[0]),
    "models.py": emitModels(reader.registry),
    "operations.py": operationsPy,
  };
}

/** Generates the package part into `outputDir`, which is emptied first. */
export async function generatePython(
  outputDir: string,
  { input = openApiPath }: { input?: string | Record<string, unknown> } = {},
): Promise<void> {
  const document = (typeof input === "string" ? JSON.parse(await readFile(input, "utf8")) : input) as Document;
  const files = renderPython(document);
  await rm(outputDir, { recursive: true, force: true });
  await mkdir(outputDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(outputDir, name), text);
}

if (import.meta.main) {
  await generatePython(pythonGeneratedDir);
  console.log(`wrote ${pythonGeneratedDir.slice(repoRoot.length + 1)}/`);
}
