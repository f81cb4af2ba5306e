/**
 * pjdfstest on /workspace, through the real platform: `npm run conformance:pjdfstest`.
 *
 * Builds pjdfstest from `../shared/third_party/pjdfstest` (BSD licence; the checkout's
 * parent holds `shared/`, in CI too, read-only there, so it is copied to a temporary
 * directory first), starts the platform as `npm start` does with COMPUTERD_MOUNT_MODE set,
 * signs up, and runs `prove -v` on every test file of the suite as root in one container
 * command (`user: "root"`), each file in a directory of its own on the workspace mount. The
 * built suite travels in on the command's stdin, as a base64 tarball unpacked into the
 * box's /tmp. The files run side by side (filesRunningMax): most of the suite's time is
 * `sleep 1` between a change and the check of its ctime, so one at a time took 20 minutes.
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
import { newWorkspace, postJsonFrom, signUp, startPlatform } from "../../api/e2e/platform.ts";
import { type Allowed, formatRanges, judge, parseAllowList } from "./allowList.ts";
import { parseProve, type TapFile } from "./tap.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "../..");
/** Where the box sees the suite, and the directory on the workspace its tests work in. */
const suiteInBox = "/tmp/pjdfstest";
const workDirInBox = "/workspace/pjdfstest-run";
/** The one exec's limit: the longest any run may have (execLimits.timeoutMsMax). */
const execTimeoutMs = 15 * 60_000;
/**
 * Test files at once. Each waits in `sleep 1` most of its time and is two or three small
 * processes (sh, prove, pjdfstest), well inside the pro plan's 512 processes and 1.5 cores.
 */
const filesRunningMax = 16;

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
    // node:http, not fetch: fetch gives up on an answer that takes more than five minutes.
    const response = await postJsonFrom(
      `${url}/v1/workspaces/${workspace}/exec`,
      { executor: "container", user: "root", timeoutMs: execTimeoutMs, ...body },
      "127.0.0.1",
      { authorization: `Bearer ${key}` },
    );
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
    // The pro plan's limits (processes, CPU) for the files that run side by side.
    const upgraded = await fetch(`${platform.url}/v1/billing/plan`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ plan: "pro" }),
    });
    if (upgraded.status !== 200) fail(`the plan upgrade answered ${upgraded.status}: ${await upgraded.text()}`);
    const workspace = await newWorkspace(platform.url, auth);
    const runStartedMs = Date.now();
    const files = testDirs.map((d) => `${suiteInBox}/tests/${d}`).join(" ");
    // Each file in a directory of its own (a test that counts its directory's links must not
    // see another's), its prove output in the box's /tmp, all printed in order at the end.
    const command = [
      `mkdir -p ${suiteInBox} /tmp/pjdfstest-out && base64 -d | tar xzf - -C ${suiteInBox}`,
      `mkdir -p ${workDirInBox} && cd ${workDirInBox}`,
      `find ${files} -name '*.t' | sort | xargs -P ${filesRunningMax} -I{} sh -c 'n=$(echo {} | sed "s|${suiteInBox}/tests/||; s|/|-|g"); mkdir -p "$n" && cd "$n" && prove -v {} > /tmp/pjdfstest-out/"$n" 2>&1; cd .. && rm -rf "$n"'`,
      "cat $(ls /tmp/pjdfstest-out/* | sort)",
    ].join(" && ");
    const result = await exec(platform.url, key, workspace, { command, stdin: suite });
    if (result.status !== "completed") {
      fail(`the run ended ${result.status} (${result.exitCode}): ${result.error ?? ""}\n${result.stderr}`);
    }
    const output = result.stdout;
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
