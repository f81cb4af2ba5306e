/**
 * Where Cubicle's shell (just-bash) may differ from real bash on a corpus script, and why.
 * api/e2e/shellCorpus.test.ts compares stdout, stderr and the exit code exactly unless a
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

/** bash prefixes its own errors with `line N:`; just-bash reports no line numbers. */
const withoutLineNumbers = (text: string) => text.replace(/^bash: line \d+: /gm, "bash: ");
/** GNU `uniq -c` right-aligns counts in 7 columns, just-bash in 4. */
const uniqCountsUnpadded = (text: string) => text.replace(/^ *(\d+) /gm, "$1 ");
/** GNU coreutils quote names with ‘…’ in UTF-8 locales, just-bash with '…'. */
const straightQuotes = (text: string) => text.replace(/[‘’]/g, "'");

/** Gaps that several scripts hit, worded once. */
const gap = {
  uniqWidth: "uniq -c pads counts to 4 columns where GNU uniq pads to 7",
  sortLeadingBlanks:
    "sort -k counts a line's leading blanks as an empty first field, so sorting `uniq -c` output by count or word orders it differently",
  sortCollation:
    "sort orders like a natural-language locale (apple before Apple) where GNU sort under C.UTF-8 orders by code point",
  diffNormal:
    "diff prints a unified diff (with a ==== header) where GNU diff prints the normal `2c2` format by default",
  lsOperands: "ls with several file operands prints a blank line between them",
  jqUnsorted: "jq's unique and group_by keep input order where jq sorts their results",
  xargsReplace: "xargs rejects the attached form -I{} (only -I {} works)",
  unboundExit: "An unbound variable under set -u ends the script with status 1 where bash -c exits 127",
  noTrap: "The trap builtin does not exist, so EXIT and ERR handlers never run",
  badSubscript:
    "an array subscript holding an arithmetic expression or a slice of an associative array is a bad substitution",
} as const;

export const allowedDifferences: AllowedDifference[] = [
  {
    name: "pipe-word-frequency",
    reason: `${gap.uniqWidth}, and ${gap.sortLeadingBlanks}.`,
    compare: "exit-code-only",
  },
  {
    name: "loop-positional",
    reason: '`for arg; do` word-splits the positional parameters instead of iterating over them like "$@".',
    compare: "exit-code-only",
  },
  { name: "glob-star", reason: `${gap.lsOperands}.`, compare: "exit-code-only" },
  {
    name: "arith-division-by-zero",
    reason: "just-bash reports division by zero without bash's line number, expression and error token.",
    compare: "stdout-and-exit-code",
  },
  {
    name: "param-required-error",
    reason: `\${x:?message} reports the message without the variable name and exits 1 where bash -c exits 127.`,
    compare: "stdout-only",
  },
  {
    name: "array-element-operations",
    reason: `\${arr[@]^} upper-cases only the first element's first letter instead of every element's.`,
    compare: "exit-code-only",
  },
  {
    name: "test-files",
    reason: "test -s is false for a directory (just-bash directories have size 0) where Linux reports a non-zero size.",
    compare: "exit-code-only",
  },
  { name: "process-substitution", reason: `${gap.diffNormal}.`, compare: "exit-code-only" },
  {
    name: "set-u-unbound",
    reason: "The unbound-variable error has no line number, and the shell exits 1 where bash -c exits 127.",
    compare: "stdout-and-stderr",
    normalize: withoutLineNumbers,
  },
  {
    name: "trap-exit",
    reason: `${gap.noTrap}.`,
    compare: "exit-code-only",
  },
  { name: "grep-extended-only", reason: `${gap.uniqWidth}.`, normalize: uniqCountsUnpadded },
  { name: "grep-recursive", reason: `${gap.sortCollation}.`, compare: "exit-code-only" },
  {
    name: "grep-exit-status",
    reason: "grep rejects -s (suppress file errors) as an invalid option and exits 1 instead of 2 for a missing file.",
    compare: "exit-code-only",
  },
  {
    name: "sed-regex-groups",
    reason: "sed -E applies extended syntax to s/// but not to /regex/ addresses, so /^[a-z]+@/ matches nothing.",
    compare: "exit-code-only",
  },
  {
    name: "awk-builtins",
    reason: "awk's printf ignores the 0 flag for floating-point conversions (%05.1f pads with spaces).",
    compare: "exit-code-only",
  },
  { name: "awk-csv-to-json", reason: `${gap.jqUnsorted}.`, compare: "exit-code-only" },
  {
    name: "sort-uniq-counts",
    reason: `${gap.uniqWidth}, and ${gap.sortLeadingBlanks}.`,
    compare: "exit-code-only",
  },
  {
    name: "sort-flags",
    reason: `${gap.sortCollation}, and sort rejects -C (check quietly).`,
    compare: "exit-code-only",
  },
  { name: "uniq-options", reason: `${gap.uniqWidth}.`, normalize: uniqCountsUnpadded },
  {
    name: "head-tail",
    reason:
      "head rejects a negative count (head -n -7, all but the last 7 lines), and od -c aligns its first column differently.",
    compare: "exit-code-only",
  },
  {
    name: "cut-fields",
    reason: `${gap.uniqWidth}, and cut rejects --output-delimiter.`,
    compare: "exit-code-only",
  },
  { name: "cut-tr-passwd", reason: `${gap.uniqWidth}.`, normalize: uniqCountsUnpadded },
  {
    name: "xargs-basic",
    reason: `${gap.xargsReplace}, and with empty input xargs does not run the command once as GNU xargs does.`,
    compare: "exit-code-only",
  },
  {
    name: "xargs-files",
    reason:
      "sort rejects -z (NUL-separated lines), and wc pads counts for small files to 3 columns where GNU wc uses the width of the total size.",
    compare: "exit-code-only",
  },
  { name: "xargs-mkdir", reason: `${gap.xargsReplace}.`, compare: "exit-code-only" },
  { name: "jq-select-map", reason: `${gap.jqUnsorted}.`, compare: "exit-code-only" },
  { name: "jq-aggregate", reason: `${gap.jqUnsorted}.`, compare: "exit-code-only" },
  {
    name: "jq-transform",
    reason: "jq's del(.a, .b) with several paths deletes nothing, and @csv leaves strings unquoted.",
    compare: "exit-code-only",
  },
  { name: "jq-nested", reason: `${gap.jqUnsorted}.`, compare: "exit-code-only" },
  {
    name: "files-error-messages",
    reason: "mkdir quotes the name with straight quotes where GNU mkdir uses ‘…’ in a UTF-8 locale.",
    normalize: straightQuotes,
  },
  { name: "basename-dirname", reason: "dirname / prints . instead of /.", compare: "exit-code-only" },
  { name: "diff-files", reason: `${gap.diffNormal}.`, compare: "exit-code-only" },
  {
    name: "readonly-assignment",
    reason: "Assigning to a readonly variable ends the whole script where bash -c fails that command and goes on.",
    compare: "nothing",
  },
  {
    name: "getopts-parsing",
    reason:
      "`local OPTIND` leaves OPTIND empty instead of 1 until getopts finds an option, so shift $((OPTIND - 1)) fails.",
    compare: "stdout-and-exit-code",
  },
  {
    name: "declare-print",
    reason: "declare -p prints associative arrays as (['k']=v) where bash prints ([k]=\"v\" ).",
    compare: "exit-code-only",
  },
  { name: "real-access-log-report", reason: `${gap.sortLeadingBlanks}.`, compare: "exit-code-only" },
  {
    name: "real-json-roles",
    reason: `${gap.uniqWidth}, and ${gap.sortLeadingBlanks}.`,
    compare: "exit-code-only",
  },
  {
    name: "real-ini-parser",
    reason: 'A case pattern with a quoted bracket, "["*"]", never matches.',
    compare: "exit-code-only",
  },
  {
    name: "real-backup-verify",
    reason: "diff rejects -r (recursive comparison of directories).",
    compare: "exit-code-only",
  },
  { name: "real-todo-extract", reason: `${gap.uniqWidth}.`, normalize: uniqCountsUnpadded },
  { name: "real-log-rotate", reason: `${gap.lsOperands}.`, compare: "exit-code-only" },
  // The feature corpus (features/*.ts).
  {
    name: "parameters-error-if-unset-message",
    reason: "${u:?message} reports the message without the variable's name (bash: u: is required).",
    compare: "exit-code-only",
  },
  {
    name: "parameters-case-modification",
    reason: "${s~~} (toggle case) is a parse error.",
    compare: "nothing",
  },
  {
    name: "parameters-transform-Q",
    reason: "${s@Q} quotes a value holding ' as $'it\\'s' where bash writes 'it'\\''s'.",
    compare: "exit-code-only",
  },
  { name: "parameters-nounset-error", reason: `${gap.unboundExit}.`, compare: "stdout-and-stderr" },
  {
    name: "arithmetic-assign-bit-ops",
    reason: "((x<<=2)) is a parse error: <<= inside (( )) is read as a here-document.",
    compare: "nothing",
  },
  {
    name: "braces-with-variable-first",
    reason:
      "Brace expansion runs after parameter expansion, so {$a,b}_{c,d} prints A_c A_d b_c b_d where bash expands $a_c and $a_d (empty) and prints b_c b_d.",
    compare: "exit-code-only",
  },
  {
    name: "braces-comma-escaped",
    reason: "An escaped comma inside braces ({a\\,b,c}) keeps its backslash.",
    compare: "exit-code-only",
  },
  { name: "braces-cp-backup-idiom", reason: `${gap.lsOperands}.`, compare: "exit-code-only" },
  {
    name: "braces-range-mixed-case",
    reason: "A letter range across cases ({X..c}) is refused as an invalid sequence.",
    compare: "nothing",
  },
  {
    name: "globbing-failglob",
    reason:
      "Under failglob a pattern with no match fails its command but the script goes on, where bash abandons the line.",
    compare: "stderr-only",
    normalize: withoutLineNumbers,
  },
  {
    name: "globbing-extglob",
    reason:
      "The extglob patterns !(…) and @(…) in a command's arguments are a parse error even after shopt -s extglob.",
    compare: "nothing",
  },
  {
    name: "globbing-directory-only",
    reason: "A pattern ending in / (*/) matches files too and prints no trailing slash.",
    compare: "exit-code-only",
  },
  { name: "globbing-glob-pattern-var-unquoted", reason: `${gap.lsOperands}.`, compare: "exit-code-only" },
  {
    name: "redirects-dev-stdin",
    reason: "/dev/stdin is an empty file, not the command's standard input.",
    compare: "exit-code-only",
  },
  {
    name: "redirects-mkfifo",
    reason:
      "There is no mkfifo: background jobs run to completion before the next command, so a named pipe could not be emulated faithfully, and an honest 'command not found' is better than a silent difference.",
    compare: "nothing",
  },
  {
    name: "control-for-positional",
    reason: '`for arg; do` word-splits the positional parameters instead of iterating over them like "$@".',
    compare: "exit-code-only",
  },
  {
    name: "control-break-continue",
    reason: "A loop left by break returns the status of the command before break instead of 0.",
    compare: "stdout-and-stderr",
  },
  {
    name: "control-case-bracket-quoted",
    reason: 'A case pattern with a quoted bracket, "["*"]", never matches.',
    compare: "exit-code-only",
  },
  {
    name: "control-set-e-in-function-and",
    reason:
      "set -e still applies inside a function called on the left of ||, so the function stops at its first failure.",
    compare: "nothing",
  },
  {
    name: "control-pipe-stderr-order",
    reason:
      "A command's stdout and stderr are kept apart, so with |& (or 2>&1) writes that alternate between them come out stdout first, then stderr.",
    compare: "exit-code-only",
  },
  { name: "control-trap-exit", reason: `${gap.noTrap}.`, compare: "exit-code-only" },
  { name: "control-trap-err", reason: `${gap.noTrap}.`, compare: "exit-code-only" },
  { name: "arrays-assoc-slice", reason: `${gap.badSubscript} (\${m[@]:0:3}).`, compare: "nothing" },
  {
    name: "arrays-array-element-upper-each",
    reason: `\${arr[@]^} upper-cases only the first element's first letter instead of every element's.`,
    compare: "exit-code-only",
  },
  {
    name: "arrays-declare-p-assoc",
    reason: "declare -p prints associative arrays as (['k']='v w') where bash prints ([k]=\"v w\" ).",
    compare: "exit-code-only",
  },
  { name: "arrays-array-index-expression", reason: `${gap.badSubscript} (\${a[i*2]}).`, compare: "nothing" },
  {
    name: "printf-d-too-big",
    reason: "printf clamps a number past 64 bits as bash does but prints no 'Numerical result out of range' warning.",
    compare: "exit-code-only",
  },
  {
    name: "printf-d-partial",
    reason:
      "A builtin's error has no `bash: line N:` prefix and comes after the builtin's own output when both go to one place.",
    compare: "exit-code-only",
  },
  {
    name: "printf-f-conversion",
    reason: "%.0f rounds halves away from zero (2.5 → 3) where C's printf rounds to even (2).",
    compare: "exit-code-only",
  },
  {
    name: "printf-dollar-single-quote-escape-set",
    reason: "od -c pads its first column one space wider than GNU od.",
    compare: "exit-code-only",
  },
  {
    name: "agents-makefile-like-deps",
    reason:
      "An associative array subscript that is a positional parameter (${deps[$1]}) expands empty inside a function.",
    compare: "exit-code-only",
  },
];
