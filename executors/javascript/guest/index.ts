/**
 * The javascript executor's guest runtime: the main module of every run's Dynamic Worker
 * (bundled by scripts/build-javascript.ts, loaded by ../JavascriptExecutor.ts). The isolate
 * is created for one run and discarded after it, so nothing a module does (globals, module
 * state, timers) reaches another run.
 *
 * It has no bindings (`env` is empty) and no network unless the run may have one (its
 * `globalOutbound` is then the egress gateway). The file capability and the publishing
 * tools arrive as arguments of `run`, and are revoked by the runtime when `run` returns.
 *
 * The builtin modules module code imports (`node:fs/promises`, `node:fs`, `ws:artifacts`,
 * `ws:git`) are small facades (../builtins.ts) that read `runContext()` from here.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import {
  type ExecOutcome,
  exitCodes,
  type OutputSink,
  type WorkspaceFsApi,
  type WorkspaceToolsApi,
} from "../../contract.ts";
import type { JavascriptJob } from "../protocol.ts";
import { takeReadHeap } from "./heapWatch.ts";
import { JsRun } from "./JsRun.ts";

export { runContext } from "./runContext.ts";

/** V8's heap statistics where the runtime exposes them (local `npm start`), taken before module code can see them. */
const readHeap = takeReadHeap();

export default class JavascriptGuest extends WorkerEntrypoint {
  private static active: { execId: string; run: JsRun } | undefined;

  async run(job: JavascriptJob, sink: OutputSink, fs: WorkspaceFsApi, tools?: WorkspaceToolsApi): Promise<ExecOutcome> {
    if (JavascriptGuest.active) {
      return {
        status: "failed",
        exitCode: exitCodes.refused,
        error: "this isolate already ran a module; runs never share one",
      };
    }
    const run = new JsRun(job, sink, fs, tools, readHeap);
    JavascriptGuest.active = { execId: job.request.execId, run };
    return run.run();
  }

  /** Ends the run as cancelled (137); module code stops at its next guarded call. */
  kill(execId: string): void {
    if (JavascriptGuest.active?.execId === execId) JavascriptGuest.active.run.kill();
  }
}
