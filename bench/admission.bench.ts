/**
 * What authentication, admission and metering add to a small request (issue 5), and how
 * many admissions one tenant's object decides per second.
 *
 * The benchmark build (bench/gateway) serves the production app at `/v1/…` and the same app
 * with that stage bypassed at `/bypass/v1/…`, in one workerd under `wrangler dev` with the
 * production wrangler.toml. A 1 KiB file is read through both, alternating request by
 * request so both see the same machine state; the ratio of medians is the stage's cost.
 * Admissions per second are counted inside workerd: a Worker keeps 1, 16 and 64 admissions
 * in flight against one TenantDO (each an RPC that checks every limit and records an event).
 */
import { startDevWorker } from "./devWorker.ts";
import { choosePlan, ms, table } from "./stats.ts";

const reads = 1_000;
const warmup = 100;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export async function admissionBench(): Promise<string> {
  const worker = await startDevWorker({ config: "wrangler.toml", entry: "bench/gateway/index.ts", migrate: true });
  try {
    const url = worker.url;
    const signup = await fetch(`${url}/v1/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench-admission@example.com" }),
    });
    const { tenant, apiKey } = (await signup.json()) as { tenant: { id: string }; apiKey: { key: string } };
    const auth = { authorization: `Bearer ${apiKey.key}` };
    await choosePlan(url, auth, "scale");
    const created = await fetch(`${url}/v1/workspaces`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: "{}",
    });
    const { id: ws } = (await created.json()) as { id: string };
    await fetch(`${url}/v1/workspaces/${ws}/files/small.txt`, { method: "PUT", headers: auth, body: "x".repeat(1024) });

    const readBypassed = () =>
      fetch(`${url}/bypass/v1/workspaces/${ws}/files/small.txt`, { headers: { "x-bench-tenant": tenant.id } }).then(
        (r) => r.arrayBuffer(),
      );
    const samples = { full: [] as number[], bypass: [] as number[] };
    let refused = 0;
    for (let i = 0; i < warmup + reads; i++) {
      const full = await timed(async () => {
        const response = await fetch(`${url}/v1/workspaces/${ws}/files/small.txt`, { headers: auth });
        if (response.status !== 200) refused++;
        await response.arrayBuffer();
      });
      const bypass = await timed(readBypassed);
      if (i >= warmup) {
        samples.full.push(full);
        samples.bypass.push(bypass);
      }
    }
    if (refused > 0) throw new Error(`${refused} measured reads were refused; the comparison would be unfair`);

    type Run = { concurrency: number; perSecond: number; admitted: number; admissions: number };
    const drive = async (concurrency: number, noop: boolean) => {
      const response = await fetch(`${url}/bench/admissions`, {
        method: "POST",
        body: JSON.stringify({ total: concurrency === 1 ? 2_000 : 10_000, concurrency, noop }),
      });
      return (await response.json()) as Run;
    };
    const local = (await (
      await fetch(`${url}/bench/admit-locally`, { method: "POST", body: JSON.stringify({ total: 10_000 }) })
    ).json()) as { total: number; elapsedMs: number };
    const runs: { run: Run; floor: Run }[] = [];
    for (const concurrency of [1, 16, 64]) {
      runs.push({ floor: await drive(concurrency, true), run: await drive(concurrency, false) });
    }

    const ratio = median(samples.full) / median(samples.bypass);
    return [
      "## Admission and metering (issue 5)",
      "",
      "Target: the stage adds under 1.3× to a small read; one tenant's object sustains over 2,000 admissions/s.",
      "",
      table(
        ["GET a 1 KiB file", "n", "p50", "p99"],
        [
          ["with auth + admission + metering (`/v1/…`)", reads, ms(median(samples.full)), ms(p99(samples.full))],
          ["stage bypassed (`/bypass/v1/…`, bench build)", reads, ms(median(samples.bypass)), ms(p99(samples.bypass))],
          ["**ratio of medians**", "", `**${ratio.toFixed(2)}×**`, ""],
        ],
      ),
      "",
      table(
        [
          "admissions in flight",
          "admissions",
          "admissions per second",
          "admitted",
          "same RPC doing nothing, per second",
        ],
        runs.map(({ run, floor }) => [
          run.concurrency,
          run.admissions,
          Math.round(run.perSecond).toLocaleString("en-US"),
          run.admitted,
          Math.round(floor.perSecond).toLocaleString("en-US"),
        ]),
      ),
      "",
      "Each admission is one RPC from a Worker to the tenant's Durable Object that refills the bucket, checks the monthly " +
        "quotas, spend cap and storage cap, and inserts the `api_requests` event with its period total, all in one " +
        "synchronous step (bench/gateway/index.ts). The last column is the same RPC to a method that does nothing: the " +
        "floor any per-request call to the object stands on here. The decision itself, called in a loop inside the " +
        `object with no RPC between calls, takes ${((local.elapsedMs / local.total) * 1000).toFixed(0)} µs ` +
        `(${local.total.toLocaleString("en-US")} in ${local.elapsedMs.toFixed(0)} ms); the rest of an admission's cost is ` +
        "the RPC and the storage commit the object's output gate waits for before it answers, which is what makes an " +
        "admitted request a counted one.",
    ].join("\n");
  } finally {
    await worker.stop();
  }
}
