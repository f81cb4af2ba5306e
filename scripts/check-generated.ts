/**
 * The drift check in `npm run check`: regenerates openapi/openapi.json in memory and every
 * SDK output (sdk-gen/generate.ts) into a temp dir, and fails when the committed files differ, naming each
 * stale file and the command that rewrites it. Generated files are never edited by hand,
 * so any difference means a route (or the generator) changed without regenerating.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { openApiDocumentText, openApiPath, repoRoot } from "../openapi/generate.ts";
import { type GeneratedOutput, generatedOutputs } from "../sdk-gen/generate.ts";

type Stale = { file: string; reason: string; fix: string };

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Every file under `dir`, as paths relative to it; none when `dir` does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  return (
    entries
      // Python's bytecode caches are made by running the code, not by the generator.
      .filter((entry) => entry.isFile() && !entry.parentPath.includes("__pycache__"))
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort()
  );
}

/** Regenerates one output into a temp dir from `documentText` and lists what differs from the committed copy. */
async function checkOutput(output: GeneratedOutput, documentText: string): Promise<Stale[]> {
  const fix = "npm run gen:sdk";
  const freshDir = await mkdtemp(join(tmpdir(), "cubicle-gen-"));
  try {
    const committedPath = join(repoRoot, output.path);
    const freshPath = output.kind === "dir" ? freshDir : join(freshDir, basename(output.path));
    await output.write(freshPath, JSON.parse(documentText));
    const files =
      output.kind === "dir"
        ? [...new Set([...(await listFiles(freshDir)), ...(await listFiles(committedPath))])]
        : [""];
    const stale: Stale[] = [];
    for (const file of files) {
      const [want, have] = await Promise.all([
        readOrNull(join(freshPath, file)),
        readOrNull(join(committedPath, file)),
      ]);
      if (want === have) continue;
      const reason = want === null ? "should not exist" : have === null ? "is missing" : "differs";
      stale.push({ file: relative(repoRoot, join(committedPath, file)), reason, fix });
    }
    return stale;
  } finally {
    await rm(freshDir, { recursive: true, force: true });
  }
}

const documentText = await openApiDocumentText();
const stale: Stale[] = [];
const committedDocument = await readOrNull(openApiPath);
if (committedDocument !== documentText) {
  const reason = committedDocument === null ? "is missing" : "differs from what the routes produce";
  stale.push({ file: relative(repoRoot, openApiPath), reason, fix: "npm run gen:openapi && npm run gen:sdk" });
}
// The SDKs are compared with what the fresh document generates, so a stale document and
// the SDK files it would change are all reported in one run.
for (const output of generatedOutputs) stale.push(...(await checkOutput(output, documentText)));

if (stale.length > 0) {
  console.error("Generated files are stale:");
  for (const { file, reason, fix } of stale) console.error(`  ${file} ${reason}; run \`${fix}\``);
  process.exit(1);
}
console.log("generated files are up to date");
