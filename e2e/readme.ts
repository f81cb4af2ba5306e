/**
 * The README's code blocks, read from README.md itself, so a test that runs them fails when
 * the README stops working rather than when a copy of it does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const readmePath = join(import.meta.dirname, "../README.md");

/** The `index`th fenced block in `language` under the `## heading` section. */
export function readmeBlock(heading: string, language: string, index = 0): string {
  const readme = readFileSync(readmePath, "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "## ${heading}" section`);
  const next = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, next === -1 ? undefined : next);
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].filter((block) => block[1] === language);
  const block = blocks[index]?.[2];
  if (block === undefined) throw new Error(`README.md's "${heading}" has no ${language} block #${index + 1}`);
  return block;
}
