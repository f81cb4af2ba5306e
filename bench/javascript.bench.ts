/**
 * The javascript executor end to end through the gateway on localhost (auth, metering, the
 * workspace object, module resolution, a fresh Dynamic Worker per run): a module that reads
 * one file and returns JSON, warm (the workspace's object already running) and cold (the
 * first run in a just-created workspace, and a new tenant's first run). Every run, warm or
 * cold, gets a new isolate: "warm" only means the workspace object and gateway are warm.
 */
import { newWorkspace, signUp, startPlatform } from "../e2e/platform.ts";
import { choosePlan, measure, ms, table } from "./stats.ts";

const code = [
  'import { readFile } from "node:fs/promises";',
  "export default async function ({ path }) {",
  "  const text = await readFile(path, 'utf8');",
  "  return { lines: text.split('\\n').length, first: text.slice(0, 6) };",
  "}",
].join("\n");

export async function javascriptBench(): Promise<string> {
  const platform = await startPlatform();
  try {
    const url = platform.url;
    const tenant = await signUp(url, "javascript-bench@example.com");
    await choosePlan(url, tenant.auth, "scale");
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
    const prepare = async (auth: Record<string, string>) => {
      const workspaceId = await newWorkspace(url, auth);
      await fetch(`${url}/v1/workspaces/${workspaceId}/files/data.txt`, { method: "PUT", headers: auth, body: lines });
      return workspaceId;
    };
    const run = async (auth: Record<string, string>, workspaceId: string) => {
      const response = await fetch(`${url}/v1/workspaces/${workspaceId}/exec`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ executor: "javascript", code, input: { path: "data.txt" } }),
      });
      const result = (await response.json()) as { exitCode: number; result?: { lines: number } };
      if (result.exitCode !== 0 || result.result?.lines !== 1000)
        throw new Error(`run failed: ${JSON.stringify(result)}`);
    };

    const warmWorkspace = await prepare(tenant.auth);
    const warm = await measure(300, () => run(tenant.auth, warmWorkspace));
    // The exec path's own floor in the same run: a shell command in a warm, reused isolate.
    const shellFloor = await measure(300, async () => {
      const response = await fetch(`${url}/v1/workspaces/${warmWorkspace}/exec`, {
        method: "POST",
        headers: { ...tenant.auth, "content-type": "application/json" },
        body: JSON.stringify({ executor: "shell", command: "echo hi" }),
      });
      await response.arrayBuffer();
    });
    const fresh: string[] = [];
    for (let i = 0; i < 60; i++) fresh.push(await prepare(tenant.auth));
    let next = 0;
    // Every call, warm-up included, takes the next unused workspace: its object has served one PUT only.
    const cold = await measure(50, () => run(tenant.auth, fresh[next++] as string), 10);
    const tenants: { auth: Record<string, string>; workspaceId: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const signed = await signUp(url, `js-cold-${i}@example.com`);
      tenants.push({ auth: signed.auth, workspaceId: await prepare(signed.auth) });
    }
    let nextTenant = 0;
    const coldTenant = await measure(
      10,
      () => {
        const t = tenants[nextTenant++] as { auth: Record<string, string>; workspaceId: string };
        return run(t.auth, t.workspaceId);
      },
      2,
    );
    return [
      "## JavaScript executor (issue 6)",
      "",
      "Through the whole platform on localhost (`wrangler dev`): auth, metering, the workspace object, module",
      "resolution and a fresh Dynamic Worker per run (`LOADER.load()`), running a module that reads a 1,000-line",
      'file through `node:fs/promises` and returns JSON. Each run gets a new isolate; "warm" means the workspace\'s',
      'object is already running, "cold" that the run is the first request after the workspace\'s creation and',
      "file upload (a new tenant: also its first exec).",
      "",
      table(
        ["run", "n", "p50", "p99"],
        [
          ["warm: same workspace, run after run", warm.n, ms(warm.p50Ms), ms(warm.p99Ms)],
          ["cold: first run in a new workspace", cold.n, ms(cold.p50Ms), ms(cold.p99Ms)],
          ["cold: first run of a new tenant", coldTenant.n, ms(coldTenant.p50Ms), ms(coldTenant.p99Ms)],
          [
            "for scale: warm shell `echo hi` (isolate reused)",
            shellFloor.n,
            ms(shellFloor.p50Ms),
            ms(shellFloor.p99Ms),
          ],
        ],
      ),
      "",
      `Targets (issue 6): under 50 ms cold, under 15 ms warm. Measured p50: warm ${ms(warm.p50Ms)}, cold ${ms(cold.p50Ms)};`,
      `the exec path itself (gateway, admission, records, metering) costs ${ms(shellFloor.p50Ms)} for a shell command.`,
    ].join("\n");
  } finally {
    await platform.stop();
  }
}
