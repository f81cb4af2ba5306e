/**
 * The run's `process`: `env` holds exactly the request's env (nothing of the platform's),
 * `cwd()`/`chdir()` follow the request's working directory, `exit(code)` ends the run with
 * that code, `exitCode` is read when the module finishes, and `stdout`/`stderr` write to
 * the run's output. There is no `process.stdin` stream: stdin is read whole with
 * `readFile("/dev/stdin")` from node:fs/promises (or passed as structured `input`).
 */
import type { ExecRequest } from "../../contract.ts";
import { createStream, type Write } from "./console.ts";
import { absolutePath } from "./paths.ts";

export interface ProcessControl {
  cwd(): string;
  /** Resolves with the code passed to `process.exit`, if module code calls it. */
  exited: Promise<number>;
  /** `process.exitCode` as module code left it (0 when unset). */
  exitCode(): number;
}

export function installProcess(request: ExecRequest, entryPath: string, write: Write): ProcessControl {
  let cwd = request.cwd || "/workspace";
  let requestExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    requestExit = resolve;
  });
  const target = process as unknown as Record<string, unknown>;
  target.env = { ...request.env };
  target.argv = ["node", entryPath];
  target.argv0 = "node";
  target.execArgv = [];
  target.exitCode = undefined;
  target.cwd = () => cwd;
  target.chdir = (directory: string) => {
    cwd = absolutePath(cwd, String(directory));
  };
  target.exit = (code?: number) => {
    requestExit(Number(code ?? target.exitCode ?? 0) || 0);
    // Node never returns from exit(); throwing unwinds the caller, and the run has already ended.
    throw new ProcessExit(Number(code ?? 0));
  };
  target.stdout = createStream("stdout", write);
  target.stderr = createStream("stderr", write);
  target.stdin = undefined;
  return {
    cwd: () => cwd,
    exited,
    exitCode: () => Number(target.exitCode ?? 0) || 0,
  };
}

/** What `process.exit` throws so that no code after it runs. */
export class ProcessExit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
    this.name = "ProcessExit";
  }
}
