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

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
