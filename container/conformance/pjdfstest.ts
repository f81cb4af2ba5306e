/**
 * pjdfstest on /workspace, through the real platform: `npm run conformance:pjdfstest`.
 *
 * Builds pjdfstest from `../shared/third_party/pjdfstest` (BSD licence; the checkout's
 * parent holds `shared/`, in CI too, read-only there, so it is copied to a temporary
 * directory first), starts the platform as `npm start` does with COMPUTERD_MOUNT_MODE set,
 * signs up, and runs `prove -rv` on each of the suite's test directories as root in a
 * container command (`user: "root"`) whose cwd is on the workspace mount. The built suite
 * travels in on the command's stdin, as a base64 tarball unpacked into the box's /tmp.
 * The results are checked against `pjdfstest.<mode>.allow` (allowList.ts): the run fails
 * on any failure it does not name, and on any it names that now passes.
 *
 * Environment: COMPUTERD_MOUNT_MODE (`native` or `fuse`, default `fuse`), PJDFSTEST_SRC
 * (another copy of the suite), PJDFSTEST_ONLY (space-separated test directories, for a
 * quick look), PJDFSTEST_LOG (where prove's whole output goes; default a temporary file).
 * Needs what the platform needs (root, FUSE, bubblewrap, the box image) plus autoconf,
 * automake, gcc and make.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { newWorkspace, signUp, startPlatform } from "../../api/e2e/platform.ts";
import { type Allowed, formatRanges, judge, parseAllowList } from "./allowList.ts";
import { parseProve, type TapFile } from "./tap.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "../..");
/** Where the box sees the suite, and the directory on the workspace its tests work in. */
const suiteInBox = "/tmp/pjdfstest";
const workDirInBox = "/workspace/pjdfstest-run";
/** One exec per test directory; the longest (chown, on FUSE) takes a few minutes. */
const execTimeoutMs = 15 * 60_000;

const mode = process.env.COMPUTERD_MOUNT_MODE || "fuse";

/** Ends the run with a message: thrown, so the platform is still stopped on the way out. */
class Failure extends Error {}

function fail(message: string): never {
  throw new Failure(message);
}

function log(message: string): void {
  console.error(`pjdfstest: ${message}`);
}

/**
 * The suite's source: PJDFSTEST_SRC, else `shared/third_party/pjdfstest` in the nearest
 * folder above the checkout that has one (its parent in CI; further up for a git worktree).
 */
function source(): string {
  const explicit = process.env.PJDFSTEST_SRC;
  if (explicit) {
    if (!existsSync(join(explicit, "pjdfstest.c"))) fail(`PJDFSTEST_SRC=${explicit} holds no pjdfstest.c`);
    return explicit;
  }
  for (let dir = dirname(repoRoot); ; dir = dirname(dir)) {
    const candidate = join(dir, "shared/third_party/pjdfstest");
    if (existsSync(join(candidate, "pjdfstest.c"))) return candidate;
    if (dir === "/") break;
  }
  return fail(
    "no pjdfstest source: it comes with the shared/ folder beside the checkout (../shared/third_party/pjdfstest); set PJDFSTEST_SRC to use another copy",
  );
}

/** Copies the suite out of the read-only shared folder and builds the binary; returns the build directory. */
function build(src: string): string {
  for (const tool of ["autoreconf", "automake", "cc", "make", "prove"]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      fail(`${tool} is missing: apt-get install autoconf automake gcc make perl`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "pjdfstest-"));
  cpSync(src, dir, { recursive: true });
  execFileSync("chmod", ["-R", "u+w", dir]);
  log(`building in ${dir}`);
  execFileSync("sh", ["-c", "autoreconf -ifs && ./configure && make pjdfstest"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return dir;
}

function tarball(dir: string): string {
  return execFileSync("tar", ["czf", "-", "-C", dir, "pjdfstest", "tests"]).toString("base64");
}

interface ExecResult {
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  error: string | null;
}

async function exec(url: string, key: string, workspace: string, body: Record<string, unknown>): Promise<ExecResult> {
  for (;;) {
    const response = await fetch(`${url}/v1/workspaces/${workspace}/exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ executor: "container", user: "root", timeoutMs: execTimeoutMs, ...body }),
    });
    // The computer is starting (its image, its daemon) or busy: ask again when told to.
    if (response.status === 429 || response.status === 503) {
      await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get("retry-after") ?? 1)));
      continue;
    }
    if (response.status !== 200) fail(`exec answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as ExecResult;
  }
}

function report(results: TapFile[], allowList: Allowed[], seconds: number): boolean {
  const rows = results.map((r) => {
    const failed = r.failures.length + r.missing;
    return `${r.file.padEnd(24)} ${String(r.planned).padStart(5)} ${String(r.passed).padStart(6)} ${String(failed).padStart(6)}`;
  });
  console.log(`${"file".padEnd(24)} ${"tests".padStart(5)} ${"passed".padStart(6)} ${"failed".padStart(6)}`);
  console.log(rows.join("\n"));
  const verdict = judge(results, allowList);
  const failed = results.reduce((n, r) => n + r.failures.length + r.missing, 0);
  const planned = results.reduce((n, r) => n + r.planned, 0);
  console.log(`\n${mode}: ${planned} subtests in ${results.length} files, ${failed} failed, ${Math.round(seconds)} s`);
  for (const [cause, count] of verdict.allowed) console.log(`  allowed (${count}): ${cause}`);
  if (verdict.unexpected.length > 0) {
    console.log(`\nunexpected failures (${verdict.unexpected.length}):`);
    for (const line of verdict.unexpected) console.log(`  ${line}`);
    console.log("\nas allow-list lines, should they be justified:");
    const byFile = new Map<string, number[]>();
    for (const line of verdict.unexpected) {
      const [file, n] = line.split(" ");
      byFile.set(file as string, [...(byFile.get(file as string) ?? []), Number(n)]);
    }
    for (const [file, ns] of byFile) console.log(`  ${file} ${formatRanges(ns)}`);
  }
  if (verdict.stale.length > 0) {
    console.log(`\nallowed failures that now pass; remove them from pjdfstest.${mode}.allow:`);
    for (const line of verdict.stale) console.log(`  ${line}`);
  }
  return verdict.unexpected.length === 0 && verdict.stale.length === 0;
}

async function main(): Promise<boolean> {
  if (mode !== "fuse" && mode !== "native") fail(`COMPUTERD_MOUNT_MODE must be native or fuse, not ${mode}`);
  const startedMs = Date.now();
  const built = build(source());
  const suite = tarball(built);
  const testDirs = (process.env.PJDFSTEST_ONLY?.split(/\s+/).filter(Boolean) ?? readdirSync(join(built, "tests")))
    .filter((d) => existsSync(join(built, "tests", d)) && !d.includes("."))
    .sort();
  const allowFile = join(here, `pjdfstest.${mode}.allow`);
  const allowList = parseAllowList(existsSync(allowFile) ? readFileSync(allowFile, "utf8") : "").filter(
    (a) => !process.env.PJDFSTEST_ONLY || testDirs.includes(a.file.split("/")[0] as string),
  );
  const logFile = process.env.PJDFSTEST_LOG || join(built, "prove.log");

  const stateDir = mkdtempSync(join(tmpdir(), "pjdfstest-platform-"));
  chmodSync(stateDir, 0o755);
  log(`starting the platform (COMPUTERD_MOUNT_MODE=${mode})`);
  const platform = await startPlatform(stateDir, {
    COMPUTERD_MOUNT_MODE: mode,
    CUBICLE_IMAGES_DIR: process.env.CUBICLE_IMAGES_DIR || join(repoRoot, ".wrangler/state/images"),
  });
  let ok = false;
  try {
    const { key, auth } = await signUp(platform.url, `pjdfstest-${Date.now()}@example.com`);
    const workspace = await newWorkspace(platform.url, auth);
    let output = "";
    const runStartedMs = Date.now();
    for (const dir of testDirs) {
      const dirStartedMs = Date.now();
      const command = [
        `if [ ! -x ${suiteInBox}/pjdfstest ]; then mkdir -p ${suiteInBox} && base64 -d | tar xzf - -C ${suiteInBox}; fi`,
        `mkdir -p ${workDirInBox} && cd ${workDirInBox}`,
        `prove -rv ${suiteInBox}/tests/${dir} 2>&1 || true`,
      ].join(" && ");
      const result = await exec(platform.url, key, workspace, { command, stdin: suite });
      if (result.status !== "completed") {
        fail(`the ${dir} run ended ${result.status} (${result.exitCode}): ${result.error ?? ""}\n${result.stderr}`);
      }
      output += result.stdout;
      log(`${dir}: ${Math.round((Date.now() - dirStartedMs) / 1000)} s`);
    }
    writeFileSync(logFile, output);
    log(`prove's output: ${logFile}; the suite ran in ${Math.round((Date.now() - runStartedMs) / 1000)} s`);
    ok = report(parseProve(output, `${suiteInBox}/tests`), allowList, (Date.now() - startedMs) / 1000);
  } finally {
    await platform.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  return ok;
}

try {
  process.exit((await main()) ? 0 : 1);
} catch (error) {
  if (!(error instanceof Failure)) throw error;
  console.error(`pjdfstest: ${error.message}`);
  process.exit(1);
}
