/** Workspace modules, builtins and the file shim, through the real API. */
import { describe, expect, it } from "vitest";
import { get, js, put, workspace } from "./testing.ts";

describe("javascript: durable imports", () => {
  it("imports two workspace modules, reads and writes files, and returns a structured result", async () => {
    const ws = await workspace();
    await put(ws, "lib/words.js", "export function words(text) { return text.split(/\\s+/).filter(Boolean); }\n");
    await put(
      ws,
      "lib/stats.mjs",
      'import { words } from "./words.js";\nexport const count = (text) => words(text).length;\n',
    );
    await put(ws, "data/in.txt", "the quick brown fox");
    const code = [
      'import { readFile, writeFile, mkdir } from "node:fs/promises";',
      'import { words } from "./lib/words.js";',
      'import { count } from "./lib/stats.mjs";',
      "export default async function ({ file }) {",
      "  const text = await readFile(file, 'utf8');",
      "  await mkdir('out', { recursive: true });",
      "  await writeFile('out/upper.txt', text.toUpperCase());",
      "  return { words: words(text), count: count(text) };",
      "}",
    ].join("\n");
    const result = await js(code, { input: { file: "data/in.txt" } }, ws);
    expect(result).toMatchObject({
      status: "completed",
      exitCode: 0,
      result: { words: ["the", "quick", "brown", "fox"], count: 4 },
      usage: { meter: "javascript_ms" },
    });
    expect(await get(ws, "out/upper.txt")).toBe("THE QUICK BROWN FOX");
  });

  it("refuses a bare import, naming it and the importing file", async () => {
    const ws = await workspace();
    await put(ws, "lib/a.js", 'import _ from "lodash";\nexport default _;\n');
    const result = await js('import a from "./lib/a.js";\nconsole.log(a);', {}, ws);
    expect(result).toMatchObject({ status: "failed", exitCode: 1, stdout: "" });
    expect(result.stderr).toContain("Cannot import 'lodash' from /workspace/lib/a.js");
    expect(result.stderr).toContain("packages are not available");
  });

  it("names a missing module and who imported it", async () => {
    const result = await js('import { x } from "./nope.js";\nconsole.log(x);');
    expect(result.status).toBe("failed");
    expect(result.stderr).toContain("Cannot find module '/workspace/nope.js' imported from /workspace/[code].js");
  });

  it("refuses imports that leave the workspace", async () => {
    const result = await js('import "../../etc/passwd.js";');
    expect(result.stderr).toContain("only files under /workspace can be imported");
  });

  it("resolves relative to the working directory, imports JSON, and node builtins bare or prefixed", async () => {
    const ws = await workspace();
    await put(ws, "app/config.json", '{ "name": "cubicle" }');
    await put(ws, "app/lib.js", "export const shout = (s) => s.toUpperCase();\n");
    const code = [
      'import config from "./config.json" with { type: "json" };',
      'import { shout } from "/workspace/app/lib.js";',
      'import path from "path";',
      'import { createHash } from "node:crypto";',
      'import { readdir } from "fs/promises";',
      "const lib = await import('./lib.js');",
      "export default async () => ({",
      "  name: shout(config.name), same: lib.shout === shout, joined: path.join('a', '..', 'b'),",
      "  hash: createHash('sha256').update('x').digest('hex').slice(0, 8), files: (await readdir('.')).sort(),",
      "});",
    ].join("\n");
    const result = await js(code, { cwd: "/workspace/app" }, ws);
    expect(result.stderr).toBe("");
    expect(result.result).toEqual({
      name: "CUBICLE",
      same: true,
      joined: "b",
      hash: "2d711642",
      files: ["config.json", "lib.js"],
    });
  });

  it("limits how deep imports nest", async () => {
    const ws = await workspace();
    for (let i = 0; i < 40; i++) await put(ws, `chain/m${i}.js`, `import "./m${i + 1}.js";\n`);
    await put(ws, "chain/m40.js", "export {};\n");
    const result = await js('import "./chain/m0.js";', {}, ws);
    expect(result.status).toBe("failed");
    expect(result.stderr).toContain("imports nest deeper than 32 modules");
  });

  it("gives workspace modules their own scope per run: module state never carries over", async () => {
    const ws = await workspace();
    await put(ws, "counter.js", "let n = 0;\nexport const next = () => ++n;\n");
    const code = 'import { next } from "./counter.js";\nexport default () => next();';
    expect((await js(code, {}, ws)).result).toBe(1);
    expect((await js(code, {}, ws)).result).toBe(1);
  });
});

describe("javascript: node:fs", () => {
  it("throws Node-style errors", async () => {
    const code = [
      'import { readFile } from "node:fs/promises";',
      "try { await readFile('missing.txt'); } catch (e) { console.log(e.code, e.syscall, e.path, e.errno, e.message); }",
    ].join("\n");
    const result = await js(code);
    expect(result.stdout).toBe("ENOENT open missing.txt -2 ENOENT: no such file or directory, open 'missing.txt'\n");
  });

  it("links, chowns and sets times, and stat with bigint: true gives mtimeNs", async () => {
    const code = [
      'import * as fs from "node:fs/promises";',
      'import { link } from "node:fs";',
      "await fs.writeFile('a.txt', 'one');",
      "await fs.link('a.txt', 'b.txt');",
      "await fs.appendFile('b.txt', '+two');",
      "await fs.chown('b.txt', 0, -1);",
      "await fs.utimes('a.txt', 0, new Date('2023-11-14T22:13:20.123Z'));",
      "const [a, b] = [await fs.stat('a.txt', { bigint: true }), await fs.lstat('b.txt')];",
      "let dir; try { await fs.mkdir('d'); await fs.link('d', 'e'); } catch (e) { dir = e.code + ' ' + e.syscall; }",
      "const viaCallback = await new Promise((resolve) => link('a.txt', 'c.txt', (e) => resolve(e === null)));",
      "export default async () => ({",
      "  text: await fs.readFile('a.txt', 'utf8'), nlink: b.nlink, sameIno: BigInt(b.ino) === a.ino,",
      "  uid: b.uid, gid: b.gid, mtimeNs: String(a.mtimeNs), mtimeMs: b.mtimeMs, dir, viaCallback,",
      "  afterCallback: (await fs.stat('c.txt')).nlink,",
      "});",
    ].join("\n");
    const result = await js(code);
    expect(result.stderr).toBe("");
    expect(result.result).toEqual({
      text: "one+two",
      nlink: 2,
      sameIno: true,
      uid: 0,
      gid: 1000,
      mtimeNs: "1700000000123000000",
      mtimeMs: 1_700_000_000_123,
      dir: "EPERM link",
      viaCallback: true,
      afterCallback: 3,
    });
  });

  it("covers the common calls: stat, readdir with types, rename, copy, symlink, rm, access", async () => {
    const code = [
      'import * as fs from "node:fs/promises";',
      'import { promises, constants, readFileSync } from "node:fs";',
      "await fs.mkdir('/workspace/d/e', { recursive: true });",
      "await fs.writeFile('d/a.txt', 'abc');",
      "await fs.appendFile('d/a.txt', 'def');",
      "await fs.copyFile('d/a.txt', 'd/b.txt');",
      "await fs.rename('d/b.txt', 'd/e/c.txt');",
      "await fs.symlink('/workspace/d/a.txt', 'd/link');",
      "const stat = await fs.stat('d/a.txt');",
      "const entries = (await fs.readdir('d', { withFileTypes: true })).map((e) => e.name + ':' + (e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : 'file'));",
      "let sync; try { readFileSync('x'); } catch (e) { sync = e.message.slice(0, 60); }",
      "await fs.rm('d/e', { recursive: true });",
      "let gone; try { await fs.access('d/e'); } catch (e) { gone = e.code; }",
      "export default async () => ({",
      "  size: stat.size, isFile: stat.isFile(), mode: (stat.mode & 0o170000).toString(8), entries: entries.sort(),",
      "  link: await fs.readlink('d/link'), viaLink: await promises.readFile('d/link', 'utf8'), F_OK: constants.F_OK, sync, gone,",
      "});",
    ].join("\n");
    const result = await js(code);
    expect(result.stderr).toBe("");
    expect(result.result).toEqual({
      size: 6,
      isFile: true,
      mode: "100000",
      entries: ["a.txt:file", "e:dir", "link:link"],
      link: "/workspace/d/a.txt",
      viaLink: "abcdef",
      F_OK: 0,
      sync: "fs.readFileSync is not available in the javascript executor ",
      gone: "ENOENT",
    });
  });
});
