/**
 * The fanotify helper's control channel (its fds 3 and 4, `--control`): the one request
 * computerd must make synchronously. `watch` puts the placeholder mark on a file computerd
 * made itself, before it moves the file into place, and writePlaceholder in sync/apply.ts,
 * which asks, is synchronous. Node's child-process pipes are non-blocking; a FIFO opened
 * without O_NONBLOCK is not, so a request is one write and one read with nothing between.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants as fsConstants, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";

const { EIO } = constants.errno;

export interface ControlChannel {
  /** The helper's ends, passed as its fds 3 and 4; handedOver() closes them here. */
  readonly helperRequests: number;
  readonly helperAnswers: number;
  /**
   * Asks the helper to mark the regular file at `path` (relative to the mount root) and
   * waits for its answer: 0, or an errno (EIO when the helper is gone or answers nonsense).
   */
  watch(path: string): number;
  /** Closes the helper's ends here once the spawned helper holds them. */
  handedOver(): void;
  close(): void;
}

/**
 * Opens two FIFOs so that each end has exactly one holder: the helper's exit gives computerd
 * EOF on the answers and EPIPE on the requests, never a hang. Their names are removed at once.
 */
export function openControlChannel(): ControlChannel {
  const dir = mkdtempSync(join(tmpdir(), "cubicle-control-"));
  try {
    const requestsPath = join(dir, "requests");
    const answersPath = join(dir, "answers");
    execFileSync("mkfifo", ["-m", "600", requestsPath, answersPath]);
    const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fsConstants;
    const helperRequests = openSync(requestsPath, O_RDONLY | O_NONBLOCK);
    const requests = openSync(requestsPath, O_WRONLY);
    const waitingAnswers = openSync(answersPath, O_RDONLY | O_NONBLOCK);
    const helperAnswers = openSync(answersPath, O_WRONLY);
    const answers = openSync(answersPath, O_RDONLY);
    closeSync(waitingAnswers);
    let open = true;
    return {
      helperRequests,
      helperAnswers,
      watch(path) {
        if (!open) return EIO;
        try {
          writeSync(requests, `watch ${Buffer.from(path).toString("hex")}\n`);
          return readErrno(answers);
        } catch {
          return EIO;
        }
      },
      handedOver() {
        closeSync(helperRequests);
        closeSync(helperAnswers);
      },
      close() {
        if (!open) return;
        open = false;
        closeSync(requests);
        closeSync(answers);
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One answer line: a few bytes, since the helper answers each request before reading the next. */
function readErrno(answers: number): number {
  const answer = Buffer.alloc(16);
  let length = 0;
  while (!answer.subarray(0, length).includes(10)) {
    const n = readSync(answers, answer, length, answer.byteLength - length, null);
    if (n === 0 || length + n >= answer.byteLength) return EIO; // the helper is gone, or confused
    length += n;
  }
  const errno = Number.parseInt(answer.subarray(0, length).toString("latin1"), 10);
  // An answer that is no number is no mark: the placeholder would read as zeros.
  return Number.isInteger(errno) && errno >= 0 ? errno : EIO;
}
