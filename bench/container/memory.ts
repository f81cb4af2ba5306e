/**
 * computerd's memory with a 36,000-file workspace. The tree is written through the API's
 * batch route before the workspace has ever had a computer, so the daemon's first start
 * has to mount all of it from the workspace object (no replica of its own to resume from).
 * Then: the first exec (cold start with the tree), the daemon's RSS, `find /workspace`
 * (every entry looked up through the mount), and the RSS again.
 *
 * The RSS is read inside the box from /proc: the daemon and the commands share its pid
 * namespace (locally the daemon is PID 1 of it; in a Cloudflare Container it is a process
 * of the container), so the same script works in both without the supervisor's secret.
 */
import { newWorkspace } from "../../api/e2e/platform.ts";
import { apiRunner, type Runner, runOk } from "./runner.ts";

export const treeFiles = 36_000;
const batchOps = 1_000;

/** `/tree/a<0..35>/b<0..9>/f<n>.txt`: 36 × 10 directories of 100 small files. */
const treePath = (i: number) => `/tree/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/f${i}.txt`;

export interface DaemonMemory {
  /** Resident set now, and its peak since the daemon started (VmHWM), in KiB. */
  rssKiB: number;
  peakKiB: number;
  pid: number;
}

/**
 * Prints `<pid> <VmRSS kB> <VmHWM kB>` for every process whose command line names computerd.
 * The pattern `compute[r]d` does not match its own text, so neither this script nor the
 * grep counts itself.
 */
const rssScript = `for d in /proc/[0-9]*; do
  if tr '\\0' ' ' < "$d/cmdline" 2>/dev/null | grep -q 'compute[r]d'; then
    echo "\${d#/proc/} $(awk '/^VmRSS:/ {r = $2} /^VmHWM:/ {h = $2} END {print r, h}' "$d/status")"
  fi
done`;

export async function daemonMemory(run: Runner): Promise<DaemonMemory> {
  const { stdout } = await runOk(run, rssScript, { timeoutMs: 30_000 });
  const rows = stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split(" ").map(Number) as [number, number, number]);
  if (rows.length === 0) throw new Error("no process named computerd is visible from inside the box");
  // Locally the namespace holds exactly the daemon; if a wrapper also matches, the daemon is the largest.
  const [pid, rssKiB, peakKiB] = rows.reduce((a, b) => (b[1] > a[1] ? b : a));
  return { pid, rssKiB, peakKiB };
}

async function writeTree(url: string, auth: Record<string, string>, workspaceId: string): Promise<void> {
  for (let start = 0; start < treeFiles; start += batchOps) {
    const ops = Array.from({ length: Math.min(batchOps, treeFiles - start) }, (_, k) => ({
      op: "write",
      path: treePath(start + k),
      content: `file ${start + k}\n`,
    }));
    const response = await fetch(`${url}/v1/workspaces/${workspaceId}/fs/batch`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ ops }),
    });
    if (!response.ok) throw new Error(`batch write at ${start}: ${response.status} ${await response.text()}`);
  }
}

export interface TreeMemoryResult {
  writeTreeMs: number;
  /** First container exec (`true`) in the workspace holding the tree, from the client. */
  firstExecMs: number;
  before: DaemonMemory;
  /** `find /workspace | wc -l` inside the box. */
  findMs: number;
  entries: number;
  after: DaemonMemory;
  workspaceId: string;
}

export async function treeMemory(url: string, auth: Record<string, string>): Promise<TreeMemoryResult> {
  const workspaceId = await newWorkspace(url, auth);
  const writeStart = performance.now();
  await writeTree(url, auth, workspaceId);
  const writeTreeMs = performance.now() - writeStart;
  const run = apiRunner(url, auth, workspaceId);
  const first = await runOk(run, "true", { timeoutMs: 300_000 });
  const before = await daemonMemory(run);
  const find = await runOk(
    run,
    't0=$(date +%s%N); n=$(find /workspace | wc -l); t1=$(date +%s%N); echo "$n $(((t1 - t0) / 1000))"',
    { timeoutMs: 300_000 },
  );
  const [entries, findUs] = find.stdout.trim().split(" ").map(Number) as [number, number];
  // 36,000 files, 360 + 36 + 1 directories, and /workspace itself.
  const expected = treeFiles + 360 + 36 + 1 + 1;
  if (entries < expected) throw new Error(`find saw ${entries} entries, expected at least ${expected}`);
  const after = await daemonMemory(run);
  return { writeTreeMs, firstExecMs: first.wallMs, before, findMs: findUs / 1000, entries, after, workspaceId };
}
