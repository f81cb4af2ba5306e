/**
 * What the host (JavascriptExecutor.ts, in the workspace object) and the guest runtime
 * (guest/index.ts, in the run's Dynamic Worker) say to each other. Both sides import it.
 */
import type { ExecOutcome, ExecRequest, OutputSink, WorkspaceFsApi, WorkspaceToolsApi } from "../contract.ts";

/** Module names in the isolate: workspace files live under `workspace/`, the runtime beside it. */
export const moduleNames = {
  /** The guest runtime (guest/index.ts bundled); the isolate's main module. */
  runtime: "cubicle/runtime.js",
  /** The `ws:git` implementation (guest/git.ts bundled); only present when a run imports `ws:git`. */
  git: "cubicle/git.js",
  /** Prefix of every workspace module: `/workspace/lib/a.js` is the module `workspace/lib/a.js`. */
  workspacePrefix: "workspace/",
  /** The request's `code`, named as a file in the working directory so its relative imports resolve there. */
  codeFile: "[code].js",
} as const;

/** One run as the host hands it to the guest. */
export interface JavascriptJob {
  request: ExecRequest;
  /** The module to evaluate (the request's code), by its name in the module map. */
  entry: string;
  /**
   * The name of the global function every instrumented loop and function calls (instrument.ts).
   * Random per run, so module code cannot declare a binding that shadows it.
   */
  guardName: string;
  /** The entry module's export that runs its body and answers its exports (entryModule.ts). */
  mainName: string;
  /** CPU budget of the run; the guard stops a loop that has held the thread this long. */
  cpuMs: number;
  /**
   * Memory the run's isolate may hold after a full collection: the platform's own per-isolate
   * limit, which the guest enforces itself where the runtime lets it read its heap (guest/heapWatch.ts).
   */
  memoryBytesMax: number;
  /** Largest JSON the result may serialise to. */
  resultBytesMax: number;
}

/** The guest entrypoint as the host calls it over RPC (declared: tsc cannot derive it through JsonValue). */
export interface JavascriptGuestStub {
  /** Runs the job; `fs` and `tools` are this run's capabilities, revoked when the call returns. */
  run(job: JavascriptJob, sink: OutputSink, fs: WorkspaceFsApi, tools?: WorkspaceToolsApi): Promise<ExecOutcome>;
  /** Ends the run as cancelled (137) as soon as the isolate takes the call. */
  kill(execId: string): Promise<void>;
}

/** A run's `error` when it held more than its memory: the guest's own stop, and the platform's, read the same. */
export function memoryLimitMessage(bytesMax: number): string {
  return `memory limit of ${bytesMax / (1024 * 1024)} MiB exceeded`;
}
