/** Formatting shared by the container benchmark's reports: times, a plain table of medians, failures. */
import { table } from "../stats.ts";
import { medianOf, type ScenarioResult } from "./fsBench.ts";

export const formatMs = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;

/** A target's median timed cell: the time, "failed", or "—" when it did not run. */
export function timedCell(result: ScenarioResult, targetId: string): string {
  if (result.errors[targetId]) return "failed";
  const value = medianOf(result, targetId, "timedMs");
  return value === undefined ? "—" : formatMs(value);
}

/** `over ÷ under` of two targets' medians of `field`, or undefined when either is missing. */
export function ratioOf(
  result: ScenarioResult,
  over: string,
  under: string,
  field: "timedMs" | "wallMs" = "timedMs",
): number | undefined {
  const a = medianOf(result, over, field);
  const b = medianOf(result, under, field);
  return a !== undefined && b ? a / b : undefined;
}

/** One row per scenario with every target's median, and the first target ÷ the second (the development aids). */
export function medianTable(results: ScenarioResult[], targetIds: string[]): string {
  const [first = "", second = ""] = targetIds;
  const rows = results.map((result) => [
    result.scenario.title,
    Math.max(...targetIds.map((id) => result.samples[id]?.length ?? 0)),
    ...targetIds.map((id) => timedCell(result, id)),
    ratioOf(result, first, second)?.toFixed(2) ?? "—",
  ]);
  return table(["scenario", "n", ...targetIds, `${first} ÷ ${second}`], rows);
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
