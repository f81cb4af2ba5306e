/**
 * The drift check in `npm run check`: regenerates openapi/openapi.json in memory and the
 * TypeScript SDK into a temp dir, and fails when the committed files differ, naming each
 * stale file and the command that rewrites it. Generated files are never edited by hand,
 * so any difference means a route (or the generator) changed without regenerating.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { openApiDocumentText, openApiPath, repoRoot } from "../openapi/generate.ts";
import { generateSdk, sdkGeneratedDir } from "../sdk-gen/generate.ts";

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
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

async function checkSdk(documentText: string): Promise<Stale[]> {
  const fix = "npm run gen:sdk";
  const freshDir = await mkdtemp(join(tmpdir(), "cubicle-sdk-"));
  try {
    await generateSdk(freshDir, { input: JSON.parse(documentText), quiet: true });
    const [fresh, committed] = await Promise.all([listFiles(freshDir), listFiles(sdkGeneratedDir)]);
    const stale: Stale[] = [];
    for (const file of new Set([...fresh, ...committed])) {
      const shown = relative(repoRoot, join(sdkGeneratedDir, file));
      const [want, have] = await Promise.all([
        readOrNull(join(freshDir, file)),
        readOrNull(join(sdkGeneratedDir, file)),
      ]);
      if (want === have) continue;
      const reason = want === null ? "should not exist" : have === null ? "is missing" : "differs";
      stale.push({ file: shown, reason, fix });
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
// The SDK is compared with what the fresh document generates, so a stale document and
// the SDK it would change are both reported in one run.
stale.push(...(await checkSdk(documentText)));

if (stale.length > 0) {
  console.error("Generated files are stale:");
  for (const { file, reason, fix } of stale) console.error(`  ${file} ${reason}; run \`${fix}\``);
  process.exit(1);
}
console.log("generated files are up to date");
