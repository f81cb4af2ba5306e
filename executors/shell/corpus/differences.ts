/**
 * Where Cubicle's shell (just-bash) may differ from real bash on a corpus script, and why.
 * e2e/shellCorpus.test.ts compares stdout, stderr and the exit code exactly unless a
 * script is listed here; a listed script must still differ from bash, so an entry is
 * removed as soon as just-bash catches up. Each reason names the gap in one sentence, and
 * `compare` keeps checking whatever the gap leaves intact.
 */

/** One run's observable result. */
export interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

/** Which parts of the outcome must still match bash for a listed script. */
export type CompareMode =
  | "everything"
  | "stdout-and-exit-code"
  | "stdout-and-stderr"
  | "stderr-and-exit-code"
  | "stdout-only"
  | "stderr-only"
  | "exit-code-only"
  | "nothing";

export const comparedFields: Record<CompareMode, readonly (keyof Outcome)[]> = {
  everything: ["stdout", "stderr", "exitCode"],
  "stdout-and-exit-code": ["stdout", "exitCode"],
  "stdout-and-stderr": ["stdout", "stderr"],
  "stderr-and-exit-code": ["stderr", "exitCode"],
  "stdout-only": ["stdout"],
  "stderr-only": ["stderr"],
  "exit-code-only": ["exitCode"],
  nothing: [],
};

export interface AllowedDifference {
  /** The corpus script. */
  name: string;
  /** Why it differs, in one sentence. */
  reason: string;
  /** What must still match; everything (after `normalize`) when absent. */
  compare?: CompareMode;
  /** Applied to stdout and stderr of both runs before comparing. */
  normalize?: (text: string) => string;
}

export const allowedDifferences: AllowedDifference[] = [
  // The feature corpus (features/*.ts).
  {
    name: "redirects-mkfifo",
    reason:
      "There is no mkfifo: background jobs run to completion before the next command, so a named pipe could not be emulated faithfully, and an honest 'command not found' is better than a silent difference.",
    compare: "nothing",
  },
];
