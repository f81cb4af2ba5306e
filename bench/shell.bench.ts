/**
 * The shell executor end to end through the gateway on localhost (auth, metering, the
 * workspace object, the Dynamic Worker): a warm `echo hi`, a warm `cat f | wc -l`, and
 * the first command in a just-created workspace; beside them, in the same run, spawning
 * `bash -c 'echo hi'` locally.
 */
import { spawnSync } from "node:child_process";
import { newWorkspace, signUp, startPlatform } from "../e2e/platform.ts";
import { choosePlan, measure, ms, table } from "./stats.ts";

export async function shellBench(): Promise<string> {
  const platform = await startPlatform();
  try {
    const url = platform.url;
    const tenant = await signUp(url, "shell-bench@example.com");
    await choosePlan(url, tenant.auth, "scale");
    const auth = { ...tenant.auth, "content-type": "application/json" };
    const createWorkspace = () => newWorkspace(url, tenant.auth);
    const exec = async (workspaceId: string, command: string) => {
      const response = await fetch(`${url}/v1/workspaces/${workspaceId}/exec`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ executor: "shell", command }),
      });
      const result = (await response.json()) as { exitCode: number; stdout: string };
      if (result.exitCode !== 0) throw new Error(`${command} failed: ${JSON.stringify(result)}`);
      return result;
    };

    const warm = await createWorkspace();
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
    await fetch(`${url}/v1/workspaces/${warm}/files/f`, {
      method: "PUT",
      headers: tenant.auth,
      body: lines,
    });
    const echo = await measure(300, () => exec(warm, "echo hi"));
    const pipe = await measure(300, () => exec(warm, "cat f | wc -l"));
    const fresh: string[] = [];
    for (let i = 0; i < 60; i++) fresh.push(await createWorkspace());
    // Every call, warm-up included, takes the next unused workspace.
    let next = 0;
    const first = await measure(50, () => exec(fresh[next++] as string, "echo hi"), 10);
    // A tenant's very first command: no warm isolate exists for it yet.
    const coldTenants: { key: string; workspaceId: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const signed = await signUp(url, `cold-${i}@example.com`);
      const workspaceId = await newWorkspace(url, signed.auth);
      coldTenants.push({ key: signed.key, workspaceId });
    }
    let nextTenant = 0;
    const coldTenant = await measure(
      10,
      async () => {
        const tenant = coldTenants[nextTenant++] as { key: string; workspaceId: string };
        await fetch(`${url}/v1/workspaces/${tenant.workspaceId}/exec`, {
          method: "POST",
          headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
          body: JSON.stringify({ executor: "shell", command: "echo hi" }),
        });
      },
      2,
    );
    const local = await measure(300, async () => spawnSync("bash", ["-c", "echo hi"]));
    const ratio = (value: number) => (value / local.p50Ms).toFixed(2);
    return [
      "## Shell executor (issue 4)",
      "",
      "Through the whole platform on localhost (`wrangler dev`): auth, metering, the workspace object and the",
      "Dynamic Worker running just-bash. `first command` runs in a workspace created just before (its object and",
      "object cold). Local: `spawnSync('bash', ['-c', 'echo hi'])` in the same run.",
      "Warm isolates are shared by a tenant's workspaces (never across tenants), so a new workspace's first command",
      "finds one warm; a new tenant's first command loads the 1.5 MB just-bash bundle into a fresh isolate.",
      "",
      table(
        ["command", "n", "p50", "p99", "p50 ÷ local bash p50"],
        [
          ["warm `echo hi`", echo.n, ms(echo.p50Ms), ms(echo.p99Ms), ratio(echo.p50Ms)],
          ["warm `cat f | wc -l` (1,000 lines)", pipe.n, ms(pipe.p50Ms), ms(pipe.p99Ms), ratio(pipe.p50Ms)],
          ["first command in a new workspace", first.n, ms(first.p50Ms), ms(first.p99Ms), ratio(first.p50Ms)],
          [
            "first command of a new tenant (cold isolate)",
            coldTenant.n,
            ms(coldTenant.p50Ms),
            ms(coldTenant.p99Ms),
            ratio(coldTenant.p50Ms),
          ],
          ["local `bash -c 'echo hi'` spawn", local.n, ms(local.p50Ms), ms(local.p99Ms), "1.00"],
        ],
      ),
      "",
      "Targets (issue 4): a warm command within 3× of a local bash spawn; the first command of a new workspace under",
      `50 ms. Measured: warm echo ${ratio(echo.p50Ms)}×, first command p50 ${ms(first.p50Ms)}.`,
    ].join("\n");
  } finally {
    await platform.stop();
  }
}
