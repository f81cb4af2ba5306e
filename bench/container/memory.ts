/**
 * computerd's memory with a 36,000-file workspace. The tree is written through the API's
 * batch route before the workspace has ever had a computer, so the daemon's first start
 * has to mount all of it from the workspace object (no state of its own to resume from).
 * Then: the first exec (cold start with the tree), the daemon's RSS, `find /workspace`
 * (every entry looked up through the mount), and the RSS again.
 *
 * The RSS is read on this host from /proc (the bench runs as root, like the supervisor): the
 * box has its own pid namespace and cannot see the daemon. The daemon is the Node process
 * whose environment names the workspace (COMPUTERD_WORKSPACE=<tenant>:<workspace>); in the
 * native mode its fanotify helper, a child process, is counted too, since without it the
 * mount does not work.
 */
import { readdirSync, readFileSync } from "node:fs";
import { childrenOf } from "../../container/supervisor/procfs.ts";
import { COMPUTERD_ENV } from "../../container/wire/index.ts";
import { newWorkspace } from "../../e2e/platform.ts";
import { apiRunner, runOk } from "./runner.ts";

export const treeFiles = 36_000;
const batchOps = 1_000;

/** `/tree/a<0..35>/b<0..9>/f<n>.txt`: 36 × 10 directories of 100 small files. */
const treePath = (i: number) => `/tree/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/f${i}.txt`;

export interface DaemonMemory {
  /** computerd's resident set now, and its peak since it started (VmHWM), in KiB. */
  rssKiB: number;
  peakKiB: number;
  /**
   * Of rssKiB, what is computerd's alone (RssAnon: heaps, stacks); the rest is mostly the
   * node binary's pages, shared with every other Node process on the host (~55 MiB).
   */
  privateKiB: number;
  /** The same for its fanotify helper (0 in the FUSE mode, which has none). */
  helperRssKiB: number;
  helperPeakKiB: number;
  helperPrivateKiB: number;
}

interface Status {
  name: string;
  rssKiB: number;
  peakKiB: number;
  anonKiB: number;
}

function status(pid: number): Status | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (key: string) => Number(text.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))?.[1] ?? 0);
    return {
      name: text.match(/^Name:\s+(.*)$/m)?.[1] ?? "",
      rssKiB: field("VmRSS"),
      peakKiB: field("VmHWM"),
      anonKiB: field("RssAnon"),
    };
  } catch {
    return null; // it ended while we looked
  }
}

/** Host pids whose environment says they serve `workspaceId` (the launcher and the daemon). */
function servingPids(workspaceId: string): number[] {
  const suffix = `:${workspaceId}`;
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const vars = readFileSync(`/proc/${entry}/environ`, "latin1").split("\0");
      const named = vars.find((v) => v.startsWith(`${COMPUTERD_ENV.workspace}=`));
      if (named?.endsWith(suffix)) pids.push(Number(entry));
    } catch {
      // Gone, or a kernel thread: not ours.
    }
  }
  return pids;
}

export function daemonMemory(workspaceId: string): DaemonMemory {
  // The launcher (setpriv, which execs unshare) and the fanotify helper carry the same
  // environment; the daemon is unshare's child.
  const serving = servingPids(workspaceId);
  const unshare = serving.find((pid) => status(pid)?.name === "unshare");
  const daemonPid = unshare === undefined ? undefined : childrenOf(unshare).find((pid) => serving.includes(pid));
  const daemon = daemonPid === undefined ? null : status(daemonPid);
  if (daemonPid === undefined || !daemon) throw new Error(`no computerd process serves workspace ${workspaceId}`);
  const helper = childrenOf(daemonPid)
    .map(status)
    .find((s) => s?.name.startsWith("cubicle-fanotif"));
  return {
    rssKiB: daemon.rssKiB,
    peakKiB: daemon.peakKiB,
    privateKiB: daemon.anonKiB,
    helperRssKiB: helper?.rssKiB ?? 0,
    helperPeakKiB: helper?.peakKiB ?? 0,
    helperPrivateKiB: helper?.anonKiB ?? 0,
  };
}

/**
 * The daemon's memory once it has settled after the first command: computerd ends a large
 * walk with a thorough collection, which runs just after that command's answer (sync/pull.ts),
 * so a reading taken at once may come while it runs (it took 50–350 ms). Read every 500 ms
 * until two readings in a row agree within 256 KiB (at most 10 s).
 */
async function settledMemory(workspaceId: string): Promise<DaemonMemory> {
  let last = daemonMemory(workspaceId);
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = daemonMemory(workspaceId);
    const moved = Math.abs(now.privateKiB + now.helperPrivateKiB - last.privateKiB - last.helperPrivateKiB);
    last = now;
    if (moved <= 256) break;
  }
  return last;
}

export async function writeTree(url: string, auth: Record<string, string>, workspaceId: string): Promise<void> {
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
  const before = await settledMemory(workspaceId);
  const find = await runOk(
    run,
    't0=$(date +%s%N); n=$(find /workspace | wc -l); t1=$(date +%s%N); echo "$n $(((t1 - t0) / 1000))"',
    { timeoutMs: 300_000 },
  );
  const [entries, findUs] = find.stdout.trim().split(" ").map(Number) as [number, number];
  // 36,000 files, 360 + 36 + 1 directories, and /workspace itself.
  const expected = treeFiles + 360 + 36 + 1 + 1;
  if (entries < expected) throw new Error(`find saw ${entries} entries, expected at least ${expected}`);
  const after = daemonMemory(workspaceId);
  return { writeTreeMs, firstExecMs: first.wallMs, before, findMs: findUs / 1000, entries, after, workspaceId };
}
