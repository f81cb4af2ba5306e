/** Turns scenario results into the ratio table of docs/benchmarks.md. */
import { table } from "../stats.ts";
import { median, type ScenarioResult, type TargetName } from "./fsBench.ts";
import { ratioTargetMax } from "./scenarios.ts";

export const formatMs = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;

function medianOf(result: ScenarioResult, target: TargetName, field: "timedMs" | "wallMs"): number | undefined {
  const samples = result.samples[target];
  return samples?.length ? median(samples.map((s) => s[field])) : undefined;
}

export interface Verdict {
  title: string;
  ratio: number | undefined;
  targetMax: number | undefined;
  met: boolean | undefined;
}

export function verdicts(results: ScenarioResult[]): Verdict[] {
  return results.map((result) => {
    const fuse = medianOf(result, "FUSE", "timedMs");
    const disk = medianOf(result, "disk", "timedMs");
    const ratio = fuse !== undefined && disk ? fuse / disk : undefined;
    const targetMax = ratioTargetMax[result.scenario.family];
    const met = ratio === undefined || targetMax === undefined ? undefined : ratio <= targetMax;
    return { title: result.scenario.title, ratio, targetMax, met };
  });
}

/** One row per scenario: the medians on each target, the two ratios and the verdict. */
export function ratioTable(results: ScenarioResult[], targets: TargetName[]): string {
  const hasFuse = targets.includes("FUSE");
  const judged = verdicts(results);
  const rows = results.map((result, i) => {
    const cell = (target: TargetName) => {
      if (result.errors[target]) return "failed";
      const value = medianOf(result, target, "timedMs");
      return value === undefined ? "—" : formatMs(value);
    };
    const ratio = (over: TargetName, under: TargetName) => {
      const a = medianOf(result, over, "timedMs");
      const b = medianOf(result, under, "timedMs");
      return a !== undefined && b ? (a / b).toFixed(2) : "—";
    };
    const verdict = judged[i] as Verdict;
    const target = verdict.targetMax === undefined ? "(none)" : `≤ ${verdict.targetMax}`;
    const mark = verdict.met === undefined ? "" : verdict.met ? " ✅" : " ❌";
    const n = Math.max(...targets.map((t) => result.samples[t]?.length ?? 0));
    const wall = (t: TargetName) => {
      const value = medianOf(result, t, "wallMs");
      return value === undefined ? "—" : formatMs(value);
    };
    return hasFuse
      ? [
          result.scenario.title,
          n,
          cell("FUSE"),
          cell("disk"),
          cell("tmpfs"),
          `${ratio("FUSE", "disk")}${mark}`,
          target,
          ratio("FUSE", "tmpfs"),
          `${wall("FUSE")} / ${wall("disk")}`,
        ]
      : [result.scenario.title, n, cell("disk"), cell("tmpfs"), ratio("disk", "tmpfs")];
  });
  const header = hasFuse
    ? [
        "scenario",
        "n",
        "FUSE",
        "disk",
        "tmpfs",
        "FUSE ÷ disk",
        "target",
        "FUSE ÷ tmpfs",
        "timed exec wall, FUSE / disk (client)",
      ]
    : ["scenario", "n", "disk", "tmpfs", "disk ÷ tmpfs"];
  return table(header, rows);
}

/** The failures, if any, quoted under the table so a broken scenario is visible, not silently missing. */
export function failures(results: ScenarioResult[]): string {
  const lines = results.flatMap((r) =>
    Object.entries(r.errors).map(
      ([target, error]) =>
        `- ${r.scenario.title} on ${target}: \`${error.replaceAll("`", "'").split("\n").slice(0, 12).join(" ⏎ ").slice(0, 600)}\``,
    ),
  );
  return lines.length ? ["Failures:", "", ...lines].join("\n") : "";
}
