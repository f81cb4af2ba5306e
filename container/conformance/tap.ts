/**
 * Reads what `prove -v` prints into one result per test file: how many subtests it planned,
 * which failed and what each failure said. Hand-written because it is twenty lines: TAP
 * parsers on npm read a single stream, and prove interleaves many files with its own lines.
 */

export interface TapFile {
  /** The test file, relative to the suite's tests directory (`chmod/00.t`). */
  file: string;
  planned: number;
  /** Subtests that answered `ok`, TODO ones included. */
  passed: number;
  /** Failed subtest numbers with the text after `not ok N`, in order. */
  failures: { n: number; message: string }[];
  /** Subtests planned but never reported (the script died): counted as failures by the caller. */
  missing: number;
}

/** `prove -v` output → one entry per file, in the order prove ran them; paths from `tests/` on. */
export function parseProve(output: string): TapFile[] {
  const files: TapFile[] = [];
  let current: TapFile | null = null;
  const close = () => {
    if (!current) return;
    current.missing = Math.max(0, current.planned - current.passed - current.failures.length);
    files.push(current);
  };
  for (const line of output.split("\n")) {
    // prove's header for a file: `<path>.t .. ` (dots padded to align), then its TAP lines.
    const header = /^(\S+\.t) \.+ ?(.*)$/.exec(line);
    if (header?.[1]) {
      close();
      const path = header[1];
      current = { file: underTests(path), planned: 0, passed: 0, failures: [], missing: 0 };
      // A file whose first TAP line prove prints on the header line itself.
      if (header[2]) readTap(current, header[2]);
      continue;
    }
    if (current) readTap(current, line);
  }
  close();
  return files;
}

function readTap(file: TapFile, line: string): void {
  const plan = /^1\.\.(\d+)/.exec(line);
  if (plan) {
    file.planned = Number(plan[1]);
    return;
  }
  const notOk = /^not ok (\d+)\s*(.*)$/.exec(line);
  if (notOk) {
    // A TODO failure is not a failure in TAP; pjdfstest marks known platform gaps that way.
    if (/# TODO/.test(notOk[2] ?? "")) file.passed++;
    else file.failures.push({ n: Number(notOk[1]), message: (notOk[2] ?? "").replace(/^- /, "") });
    return;
  }
  if (/^ok \d+/.test(line)) file.passed++;
}

/** `/tmp/pjdfstest-0/tests/chmod/00.t` → `chmod/00.t`. */
function underTests(path: string): string {
  const at = path.lastIndexOf("/tests/");
  return at < 0 ? path : path.slice(at + "/tests/".length);
}
