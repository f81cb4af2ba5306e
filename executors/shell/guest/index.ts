/**
 * The shell executor's guest: the module a workspace's Dynamic Worker runs (bundled with
 * just-bash by scripts/build-shell.ts, loaded by ../loadGuest.ts). It has no bindings but
 * the workspace's file capability, and no network unless the run may have one.
 *
 * The file capability comes with each run (`run`'s third argument: any RPC stub or
 * RpcTarget, e.g. the workspace object's own). Runs are independent: each gets its own shell and scratch filesystem; only
 * the workspace is shared, as it is between any two processes.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import {
  type ExecOutcome,
  type ExecRequest,
  exitCodes,
  type OutputSink,
  type WorkspaceFsApi,
  type WorkspaceToolsApi,
} from "../../contract.ts";
import { ShellRun } from "./ShellRun.ts";

export default class ShellGuest extends WorkerEntrypoint {
  /** Runs in this isolate, by exec id, so `kill` can reach them. */
  private static readonly running = new Map<string, ShellRun>();

  /**
   * Runs `request.command`, streaming output to `sink`; resolves when the run has ended and
   * its output is written. `tools`, when given, backs the `publish` and `share` commands.
   */
  async run(
    request: ExecRequest,
    sink: OutputSink,
    fs?: WorkspaceFsApi,
    tools?: WorkspaceToolsApi,
  ): Promise<ExecOutcome> {
    if (!fs)
      return { status: "failed", exitCode: exitCodes.refused, error: "no workspace filesystem was given to the shell" };
    if (ShellGuest.running.has(request.execId)) {
      return { status: "failed", exitCode: exitCodes.refused, error: `run ${request.execId} is already running` };
    }
    const run = new ShellRun(request, sink, fs, tools ?? null);
    ShellGuest.running.set(request.execId, run);
    try {
      return await run.run();
    } finally {
      ShellGuest.running.delete(request.execId);
    }
  }

  /**
   * Stops a run: it ends as `cancelled` with exit code 137 (128 + SIGKILL) once the shell
   * reaches its next statement. Unknown or finished runs are ignored.
   */
  kill(execId: string): void {
    ShellGuest.running.get(execId)?.kill();
  }
}
