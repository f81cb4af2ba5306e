/**
 * The expected failures of a mount mode, as a text file beside this one
 * (`pjdfstest.<mode>.allow`): groups of subtests, each under a `# cause:` line that says
 * why they fail in that mode and cannot be fixed there.
 *
 *   # cause: device nodes: the kernel refuses mknod of char and block devices in a user namespace
 *   mknod/11.t 1-28
 *   mkfifo/00.t 3,5-7
 *
 * A subtest that fails and is not listed fails the run; a listed one that passes fails it
 * too (the list must shrink when a fix lands), so the file stays a true account.
 *
 * A group under `# flaky:` instead of `# cause:` names a known bug that fails some runs and
 * not others (a race): its subtests may fail or pass, and the run prints how many failed.
 * It is for a bug being fixed, never for a limit of the mode, and the cause says which.
 */
import type { TapFile } from "./tap.ts";

export interface Allowed {
  file: string;
  subtests: Set<number>;
  cause: string;
  /** Listed under `# flaky:`: may pass as well as fail. */
  flaky: boolean;
}

export function parseAllowList(text: string): Allowed[] {
  const out: Allowed[] = [];
  let cause = "";
  let flaky = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const causeLine = /^#\s*(cause|flaky):\s*(.+)$/.exec(line);
    if (causeLine?.[2]) {
      flaky = causeLine[1] === "flaky";
      cause = flaky ? `flaky: ${causeLine[2]}` : causeLine[2];
      continue;
    }
    if (line.startsWith("#")) continue;
    const [file, ranges] = line.split(/\s+/);
    if (!file || !ranges) throw new Error(`allow list: "${line}" is not "<file> <subtests>"`);
    if (!cause) throw new Error(`allow list: ${file} has no "# cause:" line above it`);
    out.push({ file, subtests: parseRanges(ranges), cause, flaky });
  }
  return out;
}

function parseRanges(ranges: string): Set<number> {
  const set = new Set<number>();
  for (const part of ranges.split(",")) {
    const [from, to] = part.split("-").map(Number);
    if (from === undefined || !Number.isInteger(from)) throw new Error(`allow list: bad subtest range ${part}`);
    for (let n = from; n <= (to ?? from); n++) set.add(n);
  }
  return set;
}

/** "1-3,7": the shortest way to write a set of subtest numbers. */
export function formatRanges(numbers: number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

export interface Verdict {
  passed: number;
  /** Failures the list names, by cause. */
  allowed: Map<string, number>;
  /** Failures nobody listed: `file n message`. */
  unexpected: string[];
  /** Listed subtests that passed (or no longer exist): the list must lose them. */
  stale: string[];
}

export function judge(results: TapFile[], allowList: Allowed[]): Verdict {
  const verdict: Verdict = { passed: 0, allowed: new Map(), unexpected: [], stale: [] };
  const byFile = new Map<string, Allowed[]>();
  for (const a of allowList) byFile.set(a.file, [...(byFile.get(a.file) ?? []), a]);
  const failedByFile = new Map<string, Set<number>>();
  for (const r of results) {
    verdict.passed += r.passed;
    const failed = new Set(r.failures.map((f) => f.n));
    // Subtests a dying script never reported count as failures under their own numbers.
    for (let n = r.passed + r.failures.length + 1; n <= r.planned; n++) failed.add(n);
    failedByFile.set(r.file, failed);
    const messages = new Map(r.failures.map((f) => [f.n, f.message]));
    for (const n of failed) {
      const entry = byFile.get(r.file)?.find((a) => a.subtests.has(n));
      if (entry) verdict.allowed.set(entry.cause, (verdict.allowed.get(entry.cause) ?? 0) + 1);
      else verdict.unexpected.push(`${r.file} ${n} ${messages.get(n) ?? "(not reported: the script stopped)"}`);
    }
  }
  for (const a of allowList) {
    if (a.flaky) continue;
    const failed = failedByFile.get(a.file) ?? new Set<number>();
    const passing = [...a.subtests].filter((n) => !failed.has(n));
    if (passing.length > 0) verdict.stale.push(`${a.file} ${formatRanges(passing)} (${a.cause})`);
  }
  return verdict;
}
