/**
 * Cold start and warm round trip of the container executor, measured from the client:
 * - cold: a workspace that has never had a computer → the answer to its first container
 *   exec (`echo ok`), so supervisor start, namespace, Node, FUSE mount, session and the
 *   exec all count. Each sample is a new workspace.
 * - warm: `echo ok` again and again in one workspace whose computer runs.
 */
import { newWorkspace } from "../../e2e/platform.ts";
import { apiRunner, type Runner, runOk } from "./runner.ts";

export interface Distribution {
  n: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

export function distribution(samples: number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { n: sorted.length, p50Ms: at(0.5), p90Ms: at(0.9), maxMs: sorted.at(-1) ?? 0 };
}

const echoOk = async (run: Runner) => {
  const result = await runOk(run, "echo ok", { timeoutMs: 60_000 });
  if (result.stdout !== "ok\n") throw new Error(`echo ok answered ${JSON.stringify(result.stdout)}`);
  return result.wallMs;
};

/** Returns the cold samples and the workspaces they made (their computers now run: the caller may read them). */
export async function coldStarts(
  url: string,
  auth: Record<string, string>,
  count: number,
): Promise<{ cold: Distribution; workspaceIds: string[] }> {
  const samples: number[] = [];
  const workspaceIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const workspaceId = await newWorkspace(url, auth);
    workspaceIds.push(workspaceId);
    samples.push(await echoOk(apiRunner(url, auth, workspaceId)));
  }
  return { cold: distribution(samples), workspaceIds };
}

export async function warmEchoes(run: Runner, count: number, warmups = 5): Promise<Distribution> {
  for (let i = 0; i < warmups; i++) await echoOk(run);
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await echoOk(run));
  return distribution(samples);
}

/** Deletes workspaces the bench made, so their computers stop and do not count against the supervisor's limit. */
export async function deleteWorkspaces(url: string, auth: Record<string, string>, ids: string[]): Promise<void> {
  for (const id of ids) await fetch(`${url}/v1/workspaces/${id}`, { method: "DELETE", headers: auth });
}
