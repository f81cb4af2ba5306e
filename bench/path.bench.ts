/**
 * What each kind of request costs beside the cheapest authenticated one (issue 21): the p50
 * of a warm shell `echo hi`, a trivial javascript module, a 5-byte file write and a warm
 * container `echo hi`, each as a ratio to `GET /v1/account`, all measured in one run of the
 * platform. The requests take turns, one of each per round, so a slow stretch of the machine
 * (it is shared) weighs on every ratio alike instead of on whichever ran then.
 *
 * Two clients, one after the other: curl, a connection per request, as the issue's first
 * table was taken; and Node's fetch over a kept-alive connection, which leaves out the
 * connection's cost (the same for every row) and so shows the platform's own work.
 *
 * Three reference rows, without targets, add one hop at a time, so the table itself says
 * where an exec's time goes: `GET /healthz` (no credential, no storage: the local edge and
 * wrangler's proxy, which every row pays), `GET /v1/workspaces/{id}` (admission plus the D1
 * read of the workspace's row, which only the routes that show or change it make) and a stat
 * (admission, which says whether the workspace exists, plus one call to the
 * workspace's object, which a file write or an exec also makes).
 */
import { execFile } from "node:child_process";
import { loadavg } from "node:os";
import { promisify } from "node:util";
import { newWorkspace, signUp, startPlatform } from "../e2e/platform.ts";
import { choosePlan, ms, table } from "./stats.ts";

const run = promisify(execFile);

const rounds = 300;
const warmupRounds = 20;

/** The issue's measurement before the work, and its target, as ratios to `GET /v1/account`. */
const issue: Record<string, { before: number; target: number }> = {
  shell: { before: 2.0, target: 1.3 },
  javascript: { before: 3.1, target: 1.8 },
  put: { before: 1.5, target: 1.2 },
  container: { before: 3.2, target: 2 },
};

interface Probe {
  name: string;
  label: string;
  method: "GET" | "PUT" | "POST";
  path: string;
  body?: string;
  json?: boolean;
  /** Whether the answer is the one expected; a refusal or a wrong answer is not a measurement. */
  check: (status: number, text: string) => boolean;
}

/** Sends a probe with Node's fetch over a kept-alive connection; answers the milliseconds it took. */
async function viaFetch(url: string, auth: Record<string, string>, probe: Probe): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${url}${probe.path}`, {
    method: probe.method,
    headers: { ...auth, ...(probe.json ? { "content-type": "application/json" } : {}) },
    ...(probe.body === undefined ? {} : { body: probe.body }),
  });
  const text = await response.text();
  const elapsed = performance.now() - start;
  if (!probe.check(response.status, text)) throw new Error(`${probe.label}: ${response.status} ${text}`);
  return elapsed;
}

/** Sends a probe with curl, a connection per request as the issue measured; answers curl's own total time. */
async function viaCurl(url: string, auth: Record<string, string>, probe: Probe): Promise<number> {
  const args = ["-s", "-X", probe.method, "-w", "\n%{http_code} %{time_total}"];
  for (const [name, value] of Object.entries(auth)) args.push("-H", `${name}: ${value}`);
  if (probe.json) args.push("-H", "content-type: application/json");
  if (probe.body !== undefined) args.push("--data-binary", probe.body);
  const { stdout } = await run("curl", [...args, `${url}${probe.path}`]);
  const cut = stdout.lastIndexOf("\n");
  const [status, seconds] = stdout.slice(cut + 1).split(" ");
  const text = stdout.slice(0, cut);
  if (!probe.check(Number(status), text)) throw new Error(`${probe.label} (curl): ${status} ${text}`);
  return Number(seconds) * 1000;
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

type Send = (probe: Probe) => Promise<number>;

/** Rounds of one request per probe, taking turns; the p50 of each. */
async function measureRounds(probes: Probe[], send: Send): Promise<Map<string, number>> {
  // The container's first command starts its computer; warm-up rounds make every probe warm.
  for (let i = 0; i < warmupRounds; i++) for (const probe of probes) await send(probe);
  const samples = new Map<string, number[]>(probes.map((probe) => [probe.name, []]));
  for (let round = 0; round < rounds; round++) {
    // A different probe goes first each round, so none always follows the same neighbour.
    for (let k = 0; k < probes.length; k++) {
      const probe = probes[(round + k) % probes.length] as Probe;
      samples.get(probe.name)?.push(await send(probe));
    }
  }
  return new Map([...samples].map(([name, values]) => [name, p50(values)]));
}

const answered = (check?: (body: Record<string, unknown>) => boolean) => (status: number, text: string) =>
  status >= 200 && status < 300 && (!check || check(JSON.parse(text)));

export async function pathBench(): Promise<string> {
  // The machine is shared; a busy one slows every row, and the ratios less than the times.
  const loadAtStart = loadavg()
    .map((load) => load.toFixed(2))
    .join(", ");
  const platform = await startPlatform();
  try {
    const url = platform.url;
    const tenant = await signUp(url, "path-bench@example.com");
    // Requests back to back: on `scale` the rate bucket never refuses a measured one.
    await choosePlan(url, tenant.auth, "scale");
    const workspaceId = await newWorkspace(url, tenant.auth);
    const exec = `/v1/workspaces/${workspaceId}/exec`;
    // A file for the stat row to find.
    await viaFetch(url, tenant.auth, {
      name: "put",
      label: "setup",
      method: "PUT",
      path: `/v1/workspaces/${workspaceId}/files/five.txt`,
      body: "hello",
      check: answered(),
    });
    const probes: Probe[] = [
      { name: "account", label: "`GET /v1/account`", method: "GET", path: "/v1/account", check: answered() },
      { name: "healthz", label: "`GET /healthz` (reference)", method: "GET", path: "/healthz", check: answered() },
      {
        name: "workspace",
        label: "`GET /v1/workspaces/{id}` (reference)",
        method: "GET",
        path: `/v1/workspaces/${workspaceId}`,
        check: answered(),
      },
      {
        name: "stat",
        label: "stat a file (reference)",
        method: "POST",
        path: `/v1/workspaces/${workspaceId}/fs/stat`,
        json: true,
        body: JSON.stringify({ path: "/five.txt" }),
        check: answered(),
      },
      {
        name: "shell",
        label: "shell `echo hi`",
        method: "POST",
        path: exec,
        json: true,
        body: JSON.stringify({ executor: "shell", command: "echo hi" }),
        check: answered((r) => r.stdout === "hi\n"),
      },
      {
        name: "javascript",
        label: "javascript `export default () => 1`",
        method: "POST",
        path: exec,
        json: true,
        body: JSON.stringify({ executor: "javascript", code: "export default () => 1" }),
        check: answered((r) => r.result === 1),
      },
      {
        name: "put",
        label: "5-byte PUT",
        method: "PUT",
        path: `/v1/workspaces/${workspaceId}/files/five.txt`,
        body: "hello",
        check: answered(),
      },
      {
        name: "container",
        label: "container `echo hi` (warm)",
        method: "POST",
        path: exec,
        json: true,
        body: JSON.stringify({ executor: "container", command: "echo hi" }),
        check: answered((r) => r.stdout === "hi\n"),
      },
    ];
    const fetched = await measureRounds(probes, (probe) => viaFetch(url, tenant.auth, probe));
    const curled = await measureRounds(probes, (probe) => viaCurl(url, tenant.auth, probe));

    const ratio = (p50s: Map<string, number>, name: string) =>
      ((p50s.get(name) ?? 0) / (p50s.get("account") ?? 1)).toFixed(2);
    const rows = probes.map((probe) => {
      const goal = issue[probe.name];
      return [
        probe.label,
        ms(curled.get(probe.name) ?? 0),
        ratio(curled, probe.name),
        ms(fetched.get(probe.name) ?? 0),
        ratio(fetched, probe.name),
        goal ? goal.before.toFixed(1) : probe.name === "account" ? "1" : "",
        goal ? `≤ ${goal.target}` : "",
      ];
    });
    return [
      "## Request path (issue 21)",
      "",
      `One platform; per client, ${rounds} rounds of one request of each kind, taking turns, after ${warmupRounds}`,
      "warm-up rounds. curl opens a connection per request, as the issue's first table was measured,",
      "and its time is curl's own `time_total`; fetch is Node's, over a kept-alive connection. Ratio:",
      "the row's p50 over `GET /v1/account`'s, from the same client. The machine's load average",
      `when the run began: ${loadAtStart}.`,
      "",
      "The reference rows add one hop at a time: `GET /healthz` is what every row pays before the",
      "Worker's own work (locally, the edge and wrangler's proxy); the workspace read adds to",
      "admission the D1 read of the workspace's row (only the routes that show or change it read",
      "it); the stat adds to admission, which says whether the workspace exists, one call to the",
      "workspace's object. An exec goes to the tenant's object first (`TenantDO.exec`: the",
      "run's admission and slot, which also says whether the workspace exists, and its metering",
      "after it), which calls the workspace's object, which runs it: three calls, the last the",
      "shell guest's `run` in its warm Dynamic Worker, a fresh Dynamic Worker",
      'for each javascript module, the capnweb session for the container (docs/rooms.md, "The',
      'path of a shell exec, hop by hop").',
      "",
      table(["request", "curl p50", "curl ratio", "fetch p50", "fetch ratio", "ratio in the issue", "target"], rows),
    ].join("\n");
  } catch (error) {
    // A failed request is not a measurement; the platform's own log says why it failed.
    console.error(platform.output().split("\n").slice(-60).join("\n"));
    throw error;
  } finally {
    await platform.stop();
  }
}
