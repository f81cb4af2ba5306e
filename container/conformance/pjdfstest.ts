/**
 * pjdfstest on /workspace, through the real platform: `npm run conformance:pjdfstest`.
 *
 * Builds pjdfstest from `../shared/third_party/pjdfstest` (BSD licence; the checkout's
 * parent holds `shared/`, in CI too, read-only there, so it is copied to a temporary
 * directory first), starts the platform as `npm start` does with COMPUTERD_MOUNT_MODE set,
 * signs up, and runs `prove -v` on every test file of the suite as root in container
 * commands (`user: "root"`), each file in a directory of its own on the workspace mount. The
 * built suite travels in on each command's stdin, as a base64 tarball unpacked into the
 * box's /tmp. One file at a time took over 20 minutes here (much of the suite is `sleep 1`
 * before a ctime check, and rename/09.t and 10.t are 2,353 and 2,099 subtests), and one
 * command may run 15 at most, so the files are dealt into commands that run side by side
 * (execsAtOnce), each running several files at once (filesPerExecAtOnce), the costliest files
 * first, by the subtests they plan and the sleeps they hold. A file that has not finished when its command times out
 * counts as failed.
 * The results are checked against `pjdfstest.<mode>.allow` (allowList.ts): the run fails
 * on any failure it does not name, and on any it names that now passes.
 *
 * Environment: COMPUTERD_MOUNT_MODE (`native` or `fuse`, default `fuse`), PJDFSTEST_SRC
 * (another copy of the suite), PJDFSTEST_ONLY (space-separated test directories or files, for a
 * quick look), PJDFSTEST_LOG (where prove's whole output goes; default a temporary file),
 * PJDFSTEST_JUDGE (saved logs, space-separated, to judge against the allow list again,
 * running nothing).
 * Needs what the platform needs (root, FUSE, bubblewrap, the box image) plus autoconf,
 * automake, gcc and make.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { newWorkspace, postJsonFrom, signUp, startPlatform } from "../../e2e/platform.ts";
import { type Allowed, formatRanges, judge, parseAllowList } from "./allowList.ts";
import { parseProve, type TapFile } from "./tap.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "../..");
/** Where the box sees the suite, and the directory on the workspace its tests work in. */
const suiteInBox = "/tmp/pjdfstest";
const workDirInBox = "/workspace/pjdfstest-run";
/** Each command's limit: the longest any run may have (execLimits.timeoutMsMax). */
const execTimeoutMs = 15 * 60_000;
/** Commands at once: within the pro plan's 10 container runs at a time. */
const execsAtOnce = 6;
/**
 * Test files at once in one command. Each is a few small processes (sh, prove, pjdfstest)
 * and often waits in `sleep 1`; 6 × 3 stays well inside the pro plan's 512 processes.
 */
const filesPerExecAtOnce = 3;

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

interface TestFile {
  /** Relative to the suite's tests directory: `rename/09.t`. */
  path: string;
  /** Subtests it plans (`echo "1..N"`); files that compute their plan count as 50. */
  planned: number;
  /** What it costs to run, in subtests: its plan, plus `sleepCost` for each `sleep 1` it holds. */
  cost: number;
}

/**
 * A `sleep 1` line (a ctime check) sits inside loops over file types and owners, so it runs
 * many times: chown/00.t's 12 make it take as long as rename/09.t's 2,353 subtests (each
 * about 800 s at load 20, in one clean-clone run). Dealt by its plan alone, chown/00.t
 * shared a command with 53 other files, which then ran past the command's 15 minutes.
 */
const sleepCost = 60;

/** The test files of `entries`: a directory (`chmod`) stands for its files, a file (`rename/09.t`) for itself. */
function testFiles(built: string, entries: string[]): TestFile[] {
  const paths = entries.flatMap((entry) =>
    entry.endsWith(".t")
      ? [entry]
      : readdirSync(join(built, "tests", entry))
          .filter((name) => name.endsWith(".t"))
          .map((name) => `${entry}/${name}`),
  );
  return paths.map((path) => {
    const text = readFileSync(join(built, "tests", path), "utf8");
    const planned = Number(/echo "1\.\.(\d+)"/.exec(text)?.[1] ?? 50);
    return { path, planned, cost: planned + sleepCost * (text.match(/\bsleep 1\b/g)?.length ?? 0) };
  });
}

/** Deals files into `n` groups of about equal cost, the costliest first. */
function deal(files: TestFile[], n: number): TestFile[][] {
  const groups: { files: TestFile[]; cost: number }[] = Array.from({ length: n }, () => ({ files: [], cost: 0 }));
  for (const file of [...files].sort((a, b) => b.cost - a.cost)) {
    const lightest = groups.reduce((min, g) => (g.cost < min.cost ? g : min));
    lightest.files.push(file);
    lightest.cost += file.cost;
  }
  return groups.map((g) => g.files).filter((g) => g.length > 0);
}

/**
 * One command: unpacks the suite, then runs its files a few at a time, each in a directory of
 * its own (a test that counts its directory's links must not see another's), and prints each
 * file's prove output whole as soon as it ends (under a lock, so two never interleave): a
 * command its timeout cuts off still answers with every file that finished.
 */
function commandFor(files: TestFile[], index: number): string {
  const suite = `${suiteInBox}-${index}`;
  const list = files.map((f) => f.path).join("\n");
  const job = [
    `n=$(echo {} | tr / -)`,
    `mkdir -p "$n" && cd "$n"`,
    `prove -v ${suite}/tests/{} > /tmp/pjdfstest-out-${index}/"$n" 2>&1`,
    `flock /tmp/pjdfstest-out-${index}.lock cat /tmp/pjdfstest-out-${index}/"$n"`,
    `cd .. && rm -rf "$n"`,
  ].join("; ");
  return [
    `mkdir -p ${suite} /tmp/pjdfstest-out-${index} && base64 -d | tar xzf - -C ${suite}`,
    `mkdir -p ${workDirInBox}/${index} && cd ${workDirInBox}/${index}`,
    `printf '${list}\n' | xargs -P ${filesPerExecAtOnce} -I{} sh -c '${job}'`,
  ].join(" && ");
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
    // pjdfstest's PATH_MAX tests name paths of 4 KiB; the log file has them whole.
    for (const line of verdict.unexpected) console.log(`  ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
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
  const allowFile = join(here, `pjdfstest.${mode}.allow`);
  const judgeOnly = process.env.PJDFSTEST_JUDGE;
  if (judgeOnly) {
    // A saved log judged again, for working on the allow list without running the suite.
    const allowList = parseAllowList(existsSync(allowFile) ? readFileSync(allowFile, "utf8") : "");
    const logs = judgeOnly.split(/\s+/).filter(Boolean);
    return report(parseProve(logs.map((log) => readFileSync(log, "utf8")).join("\n")), allowList, 0);
  }
  const built = build(source());
  const suite = tarball(built);
  const only = process.env.PJDFSTEST_ONLY?.split(/\s+/).filter(Boolean);
  const testDirs = (only ?? readdirSync(join(built, "tests")))
    .filter((d) => statSync(join(built, "tests", d), { throwIfNoEntry: false }) !== undefined)
    .filter((d) => d.endsWith(".t") || statSync(join(built, "tests", d)).isDirectory())
    .sort();
  const allowList = parseAllowList(existsSync(allowFile) ? readFileSync(allowFile, "utf8") : "").filter(
    (a) => !only || testDirs.includes(a.file) || testDirs.includes(a.file.split("/")[0] as string),
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
    const groups = deal(testFiles(built, testDirs), execsAtOnce);
    const outputs = await Promise.all(
      groups.map(async (files, i) => {
        const execStartedMs = Date.now();
        const result = await exec(platform.url, key, workspace, { command: commandFor(files, i), stdin: suite });
        const seconds = Math.round((Date.now() - execStartedMs) / 1000);
        log(`command ${i + 1} (${files.length} files) ended ${result.status} after ${seconds} s`);
        if (result.status !== "completed" && result.status !== "timed_out") {
          fail(`command ${i + 1} ended ${result.status} (${result.exitCode}): ${result.error ?? ""}\n${result.stderr}`);
        }
        return { files, stdout: result.stdout };
      }),
    );
    const output = outputs.map((o) => o.stdout).join("");
    writeFileSync(logFile, output);
    log(`prove's output: ${logFile}; the suite ran in ${Math.round((Date.now() - runStartedMs) / 1000)} s`);
    const results = parseProve(output);
    // A file its command's timeout cut off printed nothing: all its subtests failed.
    for (const file of outputs.flatMap((o) => o.files)) {
      if (!results.some((r) => r.file === file.path)) {
        results.push({ file: file.path, planned: file.planned, passed: 0, failures: [], missing: file.planned });
        log(`${file.path} did not finish before its command's ${execTimeoutMs / 60_000} minutes were up`);
      }
    }
    results.sort((a, b) => a.file.localeCompare(b.file));
    ok = report(results, allowList, (Date.now() - startedMs) / 1000);
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
