/**
 * The packed `cubicle` CLI's time machine, installed as cli.test.ts installs it (packed,
 * `npm install -g` into a prefix of its own, run from a folder outside the repository):
 * snapshot, diff (plain through a pipe, coloured on a real terminal), history, reading a
 * past version, restore and its undo, `exec --snapshot-before` undone by one restore, and
 * usage errors that never reach the server.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const root = join(import.meta.dirname, "..");
const platform = sharedPlatform();
const scratch = mkdtempSync(join(tmpdir(), "cubicle-cli-versions-"));
const prefix = join(scratch, "prefix");
const work = join(scratch, "work");
const node24Dir = join(root, "node_modules/.bin");
let apiKey: string;
let ws: string;

function env(): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(scratch, "home"),
    CUBICLE_BASE_URL: platform.url,
    CUBICLE_API_KEY: apiKey,
    PATH: [join(prefix, "bin"), node24Dir, process.env.PATH].join(delimiter),
  };
  // Colour is decided by the terminal alone in these tests. Node's `hasColors` also reads
  // CI markers: under a bare `CI` it allows 16 colours only, and answers false.
  for (const name of ["NO_COLOR", "FORCE_COLOR", "NODE_DISABLE_COLORS", "CI", "TEAMCITY_VERSION", "XDG_CONFIG_HOME"]) {
    delete base[name];
  }
  return base;
}

function cubicle(args: string[]) {
  return spawnSync(join(prefix, "bin/cubicle"), args, { cwd: work, env: env(), encoding: "utf8", timeout: 120_000 });
}

function ok(args: string[]): string {
  const run = cubicle(args);
  if (run.status !== 0) throw new Error(`cubicle ${args.join(" ")}: exit ${run.status}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** The CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it. */
function onTerminal(args: string[]): string {
  const line = [join(prefix, "bin/cubicle"), ...args].map((word) => `'${word}'`).join(" ");
  const run = spawnSync("script", ["-qec", line, "/dev/null"], {
    cwd: work,
    env: { ...env(), TERM: "xterm-256color" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`on a terminal: cubicle ${args.join(" ")}: exit ${run.status}\n${run.stdout}`);
  return run.stdout;
}

const FOUR_LINES = "one\nTWO\nthree\nfour\n";
const FIVE_LINES = `${FOUR_LINES}five\n`;

const sh = (command: string) => ok(["exec", ws, "--", command]);

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  mkdirSync(join(scratch, "home"));
  const out = join(scratch, "pack");
  const tarball = execFileSync(join(node24Dir, "node"), [join(root, "sdk-gen/cli/pack.ts"), "--out", out], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, PATH: [node24Dir, process.env.PATH].join(delimiter) },
  }).trim();
  execFileSync("npm", ["install", "-g", tarball, "--no-audit", "--no-fund"], {
    cwd: scratch,
    env: { ...process.env, npm_config_prefix: prefix, PATH: [node24Dir, process.env.PATH].join(delimiter) },
    stdio: "ignore",
  });
  ({ key: apiKey } = await signUp(platform.url, `cli-versions-${Date.now()}@example.com`));
  ws = ok(["ws", "create", "--name", "cli-versions"]).trim();
  sh("mkdir -p notes && printf 'one\\ntwo\\nthree\\n' > notes/plan.md && echo gone > old.txt");
}, 300_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("the CLI's time machine", () => {
  it("snapshots, lists the changes since, and shows them as a patch", () => {
    const snap = ok(["snapshot", "create", ws, "--name", "base"]).trim();
    expect(snap).toMatch(/^snap_[0-9a-z]+$/);
    expect(ok(["snapshot", "ls", ws])).toMatch(new RegExp(`^${snap}\\s+base\\s+\\d+\\s`, "m"));
    const info = JSON.parse(ok(["--json", "snapshot", "info", ws, snap]));
    expect(info).toMatchObject({ id: snap, name: "base", revision: expect.any(Number) });

    sh("printf 'one\\nTWO\\nthree\\nfour\\n' > notes/plan.md && rm old.txt && echo hi > new.txt");
    // Without --from: the newest snapshot against the live files. Piped, so plain.
    const listed = cubicle(["diff", ws]);
    expect(listed.status).toBe(0);
    expect(listed.stdout.split("\n").filter(Boolean).sort()).toEqual([
      "A  /new.txt  (3 B)",
      "D  /old.txt  (5 B)",
      "M  /notes/plan.md  (14 B → 19 B)",
    ]);
    expect(listed.stderr).toMatch(
      /^3 paths changed from revision \d+ to revision \d+: 1 added, 1 modified, 1 deleted\n$/,
    );
    const patch = ok(["diff", ws, "--from", snap, "--patch"]);
    expect(patch).toContain(
      "--- a/notes/plan.md\n+++ b/notes/plan.md\n@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n three\n+four\n",
    );
    expect(patch).not.toContain("\u001b[");
    const narrowed = cubicle(["diff", ws, "--path", "/notes"]);
    expect(narrowed.stdout).toBe("M  /notes/plan.md  (14 B → 19 B)\n");
    const json = JSON.parse(ok(["--json", "diff", ws, "--from", snap, "--to", "live"]));
    expect(json.entries.map((e: { status: string }) => e.status).sort()).toEqual(["added", "deleted", "modified"]);
  });

  it("colours the patch on a terminal as git does", () => {
    const coloured = onTerminal(["diff", ws, "--patch"]);
    expect(coloured).toContain("\u001b[31m-two\u001b[39m");
    expect(coloured).toContain("\u001b[32m+TWO\u001b[39m");
    expect(coloured).toContain("\u001b[36m@@ -1,3 +1,4 @@\u001b[39m");
  });

  it("lists a file's versions and reads one back", () => {
    sh("echo five >> notes/plan.md");
    const history = JSON.parse(ok(["--json", "history", ws, "/notes/plan.md"]));
    type Version = { revision: number; until: number | null; size: number; actor: string | null; readAt: string };
    const versions = history.versions as Version[];
    expect(versions[0]).toMatchObject({ until: null, size: 24, actor: expect.stringMatching(/^exec:ex_/) });
    const previous = versions.find((version) => version.until !== null && version.size === 19);
    const listed = ok(["history", ws, "/notes/plan.md"]);
    expect(listed).toMatch(/^REVISION\s+UNTIL\s+TIME.*\sREAD AT\n/);
    // Every version reads back with the READ AT its row shows.
    for (const version of versions) expect(listed).toMatch(new RegExp(`\\s${version.readAt}\\n`));
    expect(ok(["cat", ws, "/notes/plan.md", "--at", String(previous?.readAt)])).toBe(FOUR_LINES);
    const [snap] = JSON.parse(ok(["--json", "snapshot", "ls", ws])) as { id: string }[];
    expect(ok(["cat", ws, "/notes/plan.md", "--at", snap?.id as string])).toBe("one\ntwo\nthree\n");
    expect(ok(["cat", ws, "/notes/plan.md"])).toBe(FIVE_LINES);
  });

  it("restores a snapshot, then undoes the restore with the line it prints", () => {
    const [snap] = JSON.parse(ok(["--json", "snapshot", "ls", ws])) as { id: string }[];
    const restored = ok(["restore", ws, "--snapshot", snap?.id as string]);
    const undo = new RegExp(`^undo with: cubicle restore ${ws} --revision (\\d+)$`, "m").exec(restored);
    expect(restored).toMatch(/^restored snap_\w+: 3 paths set back, now revision \d+\n/);
    expect(undo).not.toBeNull();
    expect(ok(["cat", ws, "/notes/plan.md"])).toBe("one\ntwo\nthree\n");
    // Already there: no new revision, so the undo line above still undoes the restore.
    expect(ok(["restore", ws, "--snapshot", snap?.id as string])).toMatch(/^nothing to restore: /);
    const clean = cubicle(["diff", ws]);
    expect([clean.stdout, clean.stderr]).toEqual(["", expect.stringMatching(/^no changes from revision/)]);

    ok(["restore", ws, "--revision", undo?.[1] as string]);
    expect(ok(["cat", ws, "/notes/plan.md"])).toBe(FIVE_LINES);
    expect(cubicle(["cat", ws, "/old.txt"]).status).toBe(1);
  });

  it("undoes an exec taken with --snapshot-before in one restore", () => {
    const run = cubicle(["exec", ws, "--snapshot-before", "--", "rm -r notes; echo removed"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("removed\n");
    const line = /^cubicle: took (snap_\w+) before the run; undo it with: cubicle restore (\S+) --snapshot \1$/m.exec(
      run.stderr,
    );
    expect(line?.[2]).toBe(ws);
    expect(cubicle(["cat", ws, "/notes/plan.md"]).stderr).toMatch(/404 not_found/);
    ok(["restore", ws, "--snapshot", line?.[1] as string]);
    expect(ok(["cat", ws, "/notes/plan.md"])).toBe(FIVE_LINES);
  });

  it("stops quietly when the reader of its patch stops early, as Unix tools do", () => {
    const other = ok(["ws", "create", "--name", "cli-versions-pipe"]).trim();
    ok(["snapshot", "create", other]);
    // Far more than a pipe holds, so the CLI is still writing when `head` goes.
    ok(["exec", other, "--", "seq 1 50000 > numbers.txt"]);
    const piped = spawnSync("sh", ["-c", `'${join(prefix, "bin/cubicle")}' diff ${other} --patch | head -2`], {
      cwd: work,
      env: env(),
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(piped.stdout).toBe("diff --git a/numbers.txt b/numbers.txt\nnew file mode 100644\n");
    expect(piped.stderr).toBe("");
    expect(ok(["diff", other, "--path", "/numbers.txt"])).toMatch(/^A {2}\/numbers\.txt {2}\(/);
  });

  it("refuses a malformed version before any request, and names a missing snapshot", () => {
    for (const args of [
      ["restore", ws],
      ["restore", ws, "--snapshot", "snap_abc", "--revision", "3"],
      ["restore", ws, "--revision", "three"],
      ["diff", ws, "--from", "HEAD~1"],
      ["cat", ws, "/notes/plan.md", "--at", "-3"],
    ]) {
      const refused = cubicle(args);
      expect([refused.status, refused.stderr], args.join(" ")).toEqual([2, expect.stringMatching(/^cubicle: /)]);
    }
    const missing = cubicle(["restore", ws, "--snapshot", "snap_0000000000000000000000000"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^cubicle: 404 not_found: /);
  });
});
