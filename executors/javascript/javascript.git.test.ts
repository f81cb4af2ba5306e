/** `ws:git` and `ws:artifacts` from module code, through the real API. */
import { describe, expect, it } from "vitest";
import { get, js, put, workspace } from "./testing.ts";

describe("javascript: ws:git", () => {
  it("imports two workspace modules, reads and writes files, commits them, and returns a structured result", async () => {
    const ws = await workspace();
    await put(ws, "proj/lib/slug.js", "export const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');\n");
    await put(
      ws,
      "proj/lib/page.js",
      'import { slug } from "./slug.js";\nexport const page = (t) => ({ name: slug(t) + ".md", body: "# " + t + "\\n" });\n',
    );
    await put(ws, "proj/titles.txt", "Hello World\nSecond Page\n");
    const code = [
      'import { readFile, writeFile } from "node:fs/promises";',
      'import { createGit } from "ws:git";',
      'import { page } from "./lib/page.js";',
      'import { slug } from "./lib/slug.js";',
      "export default async function ({ message }) {",
      "  const git = createGit({ dir: '.' });",
      "  await git.init();",
      "  const titles = (await readFile('titles.txt', 'utf8')).split('\\n').filter(Boolean);",
      "  for (const title of titles) { const p = page(title); await writeFile(p.name, p.body); }",
      "  await git.add('.');",
      "  const first = await git.commit({ message, author: 'Ada <ada@example.com>' });",
      "  await writeFile(slug('Third') + '.md', '# Third\\n');",
      "  await git.add('.');",
      "  const second = await git.commit({ message: 'third page' });",
      "  const log = await git.log();",
      "  return { oid: second.oid, first: first.oid, log: log.length, subjects: log.map((c) => c.subject), status: await git.status() };",
      "}",
    ].join("\n");
    const result = await js(code, { cwd: "/workspace/proj", input: { message: "two pages" } }, ws);
    expect(result.stderr).toBe("");
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    const value = result.result as { oid: string; first: string; log: number; subjects: string[]; status: unknown[] };
    expect(value.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(value.first).not.toBe(value.oid);
    expect(value).toMatchObject({ log: 2, subjects: ["third page", "two pages"], status: [] });
    expect(await get(ws, "proj/hello-world.md")).toBe("# Hello World\n");
    expect(await get(ws, "proj/.git/HEAD")).toBe("ref: refs/heads/main\n");
  });

  it("offers the default repository at /workspace as named exports", async () => {
    const code = [
      'import git, { init, add, commit, log } from "ws:git";',
      'import { writeFile } from "node:fs/promises";',
      "await init();",
      "await writeFile('a.txt', 'a');",
      "await add('a.txt');",
      "const { oid } = await commit({ message: 'first' });",
      "export default async () => ({ same: (await git.log())[0].oid === oid, n: (await log()).length, dir: git.dir });",
    ].join("\n");
    const result = await js(code);
    expect(result.stderr).toBe("");
    expect(result.result).toEqual({ same: true, n: 1, dir: "/workspace" });
  });
});

describe("javascript: ws:artifacts", () => {
  it("publishes a directory and shares a file", async () => {
    const ws = await workspace();
    await put(ws, "dist/index.html", "<h1>hi</h1>");
    const code = [
      'import { publish, share } from "ws:artifacts";',
      "const artifact = await publish('dist');",
      "const link = await share('dist/index.html', { ttlSeconds: 600 });",
      "let missing; try { await publish('nope'); } catch (e) { missing = e.code; }",
      "export default () => ({ id: artifact.id, files: artifact.files.map((f) => f.path), url: link.url, missing });",
    ].join("\n");
    const result = await js(code, {}, ws);
    expect(result.stderr).toBe("");
    const value = result.result as { id: string; files: string[]; url: string; missing: string };
    expect(value.id).toMatch(/^art_/);
    expect(value.files).toEqual(["index.html"]);
    expect(value.url).toMatch(/\/s\/[^/]+$/);
    expect(value.missing).toBe("ENOENT");
  });
});
