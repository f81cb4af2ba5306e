/**
 * A quick look at the shell corpus while working on just-bash's patches: each script (or
 * those whose name contains the argument) runs through the patched just-bash bundle here in
 * Node, with an in-memory filesystem, and through /bin/bash, and the differences are
 * printed. It is not the test (e2e/shellCorpus.test.ts runs the real executor): no
 * workspace, no output streaming, no custom commands. `node scripts/shell-corpus-quick.ts [filter]`
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { corpus } from "../executors/shell/corpus/scripts.ts";
// @ts-expect-error: the browser bundle has no declarations of its own; the API is just-bash's.
import { Bash } from "../node_modules/just-bash/dist/bundle/browser.js";

const filter = process.argv[2] ?? "";
let same = 0;
let total = 0;
for (const entry of corpus.filter((e) => e.name.includes(filter))) {
  total++;
  const files = Object.fromEntries(Object.entries(entry.files ?? {}).map(([p, c]) => [`/workspace/${p}`, c]));
  const shell = new Bash({
    cwd: "/workspace",
    files: { "/workspace/.keep": "", ...files },
    env: { HOME: "/home/user", PATH: "/usr/bin:/bin", ...entry.env },
    defenseInDepth: false,
  });
  let mine: { stdout: string; stderr: string; exitCode: number };
  try {
    mine = await shell.exec(entry.script, { rawScript: true, stdin: entry.stdin ?? "" });
  } catch (error) {
    mine = { stdout: "", stderr: `threw ${error}`, exitCode: -1 };
  }
  shell.fs.rm?.("/workspace/.keep");
  const cwd = mkdtempSync(join(tmpdir(), "corpus-quick-"));
  for (const [path, content] of Object.entries(entry.files ?? {})) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), content);
  }
  const real = spawnSync("/bin/bash", ["-c", entry.script], {
    argv0: "bash",
    cwd,
    input: entry.stdin ?? "",
    env: { PATH: process.env.PATH, HOME: cwd, LANG: "C.UTF-8", ...entry.env },
    encoding: "utf8",
    timeout: 10_000,
  });
  rmSync(cwd, { recursive: true, force: true });
  if (mine.stdout === real.stdout && mine.stderr === real.stderr && mine.exitCode === real.status) {
    same++;
    continue;
  }
  console.log(`=== ${entry.name}`);
  if (mine.stdout !== real.stdout)
    console.log(`  stdout just-bash ${JSON.stringify(mine.stdout)}\n  stdout bash      ${JSON.stringify(real.stdout)}`);
  if (mine.stderr !== real.stderr)
    console.log(`  stderr just-bash ${JSON.stringify(mine.stderr)}\n  stderr bash      ${JSON.stringify(real.stderr)}`);
  if (mine.exitCode !== real.status) console.log(`  exit just-bash ${mine.exitCode}, bash ${real.status}`);
}
console.log(`${same}/${total} identical`);
