/**
 * `npm run bench`: runs every benchmark in turn and writes docs/benchmarks.md with the
 * command, the machine and the results. `node bench/run.ts <name>` runs one and replaces
 * only its section (bench/doc.ts). Benchmarks never run as part of `npm test`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { admissionBench } from "./admission.bench.ts";
import { boxBench } from "./box.bench.ts";
import { containerBench } from "./container.bench.ts";
import { benchmarksDoc } from "./doc.ts";
import { filesystemBench } from "./filesystem.bench.ts";
import { gatewayBench } from "./gateway.bench.ts";
import { javascriptBench } from "./javascript.bench.ts";
import { pathBench } from "./path.bench.ts";
import { shellBench } from "./shell.bench.ts";
import { versionsBench } from "./versions.bench.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv[2];
const benches: Record<string, () => Promise<string>> = {
  gateway: gatewayBench,
  admission: admissionBench,
  filesystem: filesystemBench,
  shell: shellBench,
  javascript: javascriptBench,
  container: containerBench,
  // After the executors' own: the whole request path of each, as ratios (issue 21).
  path: pathBench,
  box: boxBench,
  versions: versionsBench,
};

if (only && !benches[only]) throw new Error(`no benchmark named ${only}; there are ${Object.keys(benches).join(", ")}`);

const sections: { name: string; text: string }[] = [];
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`bench: ${name}…`);
  const text = await bench();
  console.log(text);
  sections.push({ name, text });
}

const file = join(root, "docs/benchmarks.md");
const previous = existsSync(file) ? readFileSync(file, "utf8") : null;
writeFileSync(file, benchmarksDoc(previous, sections, !only));
