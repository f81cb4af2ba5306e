/** Small measurement helpers shared by the benchmarks. */

export interface Summary {
  n: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export async function measure(iterations: number, run: (i: number) => Promise<unknown>, warmup = 20): Promise<Summary> {
  for (let i = 0; i < warmup; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { n: iterations, p50Ms: at(0.5), p99Ms: at(0.99), meanMs: samples.reduce((a, b) => a + b, 0) / iterations };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;

/**
 * Puts a benchmark's tenant on a plan. Benchmarks send requests back to back, far past the
 * free plan's 20 per second; on `scale` (2,000/s) the bucket never refuses a measured one.
 */
export async function choosePlan(url: string, auth: Record<string, string>, plan: "pro" | "scale"): Promise<void> {
  const response = await fetch(`${url}/v1/billing/plan`, {
    method: "PUT",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ plan }),
  });
  if (!response.ok) throw new Error(`choosing the ${plan} plan: ${response.status} ${await response.text()}`);
}

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
