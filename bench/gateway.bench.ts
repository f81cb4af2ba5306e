/**
 * What a request costs through the whole gateway on localhost (wrangler dev, workerd):
 * an unauthenticated health check, an authenticated account read (key verification and
 * usage metering included), and 1 MiB file upload and download.
 */
import { newWorkspace, signUp, startPlatform } from "../e2e/platform.ts";
import { choosePlan, measure, ms, table } from "./stats.ts";

export async function gatewayBench(): Promise<string> {
  const platform = await startPlatform();
  try {
    const url = platform.url;
    const { auth } = await signUp(url, "bench@example.com");
    await choosePlan(url, auth, "scale");
    /** Reads a response, failing the benchmark on anything but success: a refusal is not a measurement. */
    const ok = async (response: Response) => {
      if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
      return response.arrayBuffer();
    };
    const ws = { id: await newWorkspace(url, auth) };
    const mib = new Uint8Array(1024 * 1024);
    crypto.getRandomValues(mib.subarray(0, 65_536));

    const health = await measure(500, async () => (await fetch(`${url}/healthz`)).arrayBuffer());
    const account = await measure(500, async () => ok(await fetch(`${url}/v1/account`, { headers: auth })));
    const put = await measure(
      50,
      async (i) =>
        ok(
          await fetch(`${url}/v1/workspaces/${ws.id}/files/f${i % 5}.bin`, { method: "PUT", headers: auth, body: mib }),
        ),
      5,
    );
    const get = await measure(
      50,
      async (i) => ok(await fetch(`${url}/v1/workspaces/${ws.id}/files/f${i % 5}.bin`, { headers: auth })),
      5,
    );
    const mibPerSecond = (s: { meanMs: number }) => (1000 / s.meanMs).toFixed(1);
    return [
      "## Gateway (issue 2)",
      "",
      table(
        ["request", "n", "p50", "p99", "throughput"],
        [
          ["GET /healthz (no auth)", health.n, ms(health.p50Ms), ms(health.p99Ms), ""],
          ["GET /v1/account (auth + admission + D1)", account.n, ms(account.p50Ms), ms(account.p99Ms), ""],
          ["PUT 1 MiB file", put.n, ms(put.p50Ms), ms(put.p99Ms), `${mibPerSecond(put)} MiB/s`],
          ["GET 1 MiB file", get.n, ms(get.p50Ms), ms(get.p99Ms), `${mibPerSecond(get)} MiB/s`],
        ],
      ),
    ].join("\n");
  } finally {
    await platform.stop();
  }
}
