/**
 * One javascript run inside its Dynamic Worker: installs the run's console, process, guard
 * and file capability, imports the entry module, calls its default export with `input`,
 * and turns whatever happened into an ExecOutcome.
 *
 * The run ends at the first of: the module (and its default export) settling, process.exit,
 * an unhandled rejection, the timeout, a kill, the CPU or memory limit, or the output sink failing.
 * It does not wait for timers the module left behind: the isolate is discarded with the
 * run, and the capabilities it was given are revoked when `run` returns.
 */

import { OutputPump } from "../../../container/wire/outputPump.ts";
import {
  type ExecOutcome,
  exitCodes,
  type JsonValue,
  type OutputSink,
  type WorkspaceFsApi,
  type WorkspaceToolsApi,
} from "../../contract.ts";
import { javascriptLimits } from "../limits.ts";
import { type JavascriptJob, memoryLimitMessage } from "../protocol.ts";
import { createAi } from "./ai.ts";
import { createArtifacts } from "./artifacts.ts";
import { createConsole } from "./console.ts";
import { createFsPromises } from "./fsPromises.ts";
import { Guard, RunStopped, type StopReason } from "./guard.ts";
import { HeapWatch, type ReadHeap } from "./heapWatch.ts";
import { createNodeFs } from "./nodeFs.ts";
import { installProcess, ProcessExit } from "./process.ts";
import { type RunContext, setRunContext } from "./runContext.ts";
import { describeUncaught, installStackFormat } from "./stacks.ts";

type Ending =
  | { kind: "settled"; value: unknown }
  | { kind: "threw"; error: unknown }
  | { kind: "exit"; code: number }
  | { kind: "stopped"; reason: StopReason }
  | { kind: "sink"; error: unknown };

const encoder = new TextEncoder();
const mebibyte = 1024 * 1024;

export class JsRun {
  private readonly guard: Guard;
  private readonly heap: HeapWatch | undefined;

  private readonly pump: OutputPump;
  private endWith: (ending: Ending) => void = () => {};
  private readonly ended = new Promise<Ending>((resolve) => {
    this.endWith = resolve;
  });

  constructor(
    private readonly job: JavascriptJob,
    sink: OutputSink,
    private readonly fs: WorkspaceFsApi,
    private readonly tools: WorkspaceToolsApi | undefined,
    readHeap: ReadHeap | undefined,
  ) {
    this.heap = readHeap && new HeapWatch(readHeap, job.memoryBytesMax);
    this.guard = new Guard(job.request.timeoutMs, job.cpuMs, this.heap);
    this.guard.whenStopped((reason) => this.endWith({ kind: "stopped", reason }));
    this.pump = new OutputPump(sink, job.request.outputBytesMax, (error) => this.endWith({ kind: "sink", error }));
  }

  kill(): void {
    this.guard.stop("killed");
  }

  async run(): Promise<ExecOutcome> {
    const { job } = this;
    const write = (stream: "stdout" | "stderr", bytes: Uint8Array) => void this.pump.write(stream, bytes);
    const timer = setTimeout(() => this.guard.stop("timed_out"), job.request.timeoutMs);
    this.install(write);
    const onRejection = (event: PromiseRejectionEvent) => {
      event.preventDefault();
      this.endWith({ kind: "threw", error: event.reason });
    };
    addEventListener("unhandledrejection", onRejection);
    void this.evaluate().then(this.endWith, (error: unknown) =>
      this.endWith(error instanceof ProcessExit ? { kind: "exit", code: error.code } : { kind: "threw", error }),
    );
    try {
      const outcome = await this.outcome(await this.ended, write);
      await this.pump.flush();
      return this.pump.failure === undefined
        ? outcome
        : { status: "failed", exitCode: 1, error: `output sink failed: ${String(this.pump.failure)}` };
    } finally {
      clearTimeout(timer);
      this.guard.dispose();
      removeEventListener("unhandledrejection", onRejection);
    }
  }

  /** Everything module code sees of the platform: guard, console, process, and the builtin modules' state. */
  private install(write: (stream: "stdout" | "stderr", bytes: Uint8Array) => void): void {
    const { job } = this;
    Object.defineProperty(globalThis, job.guardName, { value: this.guard.check, writable: false, configurable: false });
    installStackFormat();
    globalThis.console = createConsole(write);
    const entryPath = `/${job.entry}`;
    const control = installProcess(job.request, entryPath, write);
    void control.exited.then((code) => this.endWith({ kind: "exit", code }));
    this.exitCode = control.exitCode;
    const fsPromises = createFsPromises({ api: this.fs, cwd: control.cwd, stdin: job.request.stdin, write });
    const context: RunContext = {
      fsPromises,
      nodeFs: createNodeFs(fsPromises),
      artifacts: createArtifacts(this.tools, control.cwd),
      ai: createAi(this.tools),
    };
    setRunContext(context);
  }

  private exitCode: () => number = () => 0;

  /**
   * Imports the entry module, runs its body, and calls its default export if it is a function.
   * workerd evaluates modules outside any request, where I/O and timers are refused, so the
   * request's code arrives wrapped as a function (entryModule.ts) that runs here, inside the run.
   */
  private async evaluate(): Promise<Ending> {
    // Absolute: a bare name would resolve against the runtime's own directory (cubicle/).
    const entry = (await import(`/${this.job.entry}`)) as Record<string, () => Promise<{ default?: unknown }>>;
    const body = entry[this.job.mainName];
    if (typeof body !== "function") throw new Error("the entry module has no body function");
    const module = await body();
    if (typeof module.default !== "function") return { kind: "settled", value: undefined };
    const value = await (module.default as (input: unknown) => unknown)(this.job.request.input ?? null);
    return { kind: "settled", value };
  }

  private async outcome(ending: Ending, write: (stream: "stderr", bytes: Uint8Array) => void): Promise<ExecOutcome> {
    const say = (text: string) => write("stderr", encoder.encode(`${text}\n`));
    switch (ending.kind) {
      case "stopped":
        return this.stopped(ending.reason, say);
      case "sink":
        return { status: "failed", exitCode: 1, error: `output sink failed: ${String(ending.error)}` };
      case "exit":
        return { status: ending.code === 0 ? "completed" : "failed", exitCode: ending.code };
      case "threw":
        if (ending.error instanceof RunStopped) return this.stopped(ending.error.reason, say);
        say(describeUncaught(ending.error));
        return { status: "failed", exitCode: 1, error: "uncaught exception" };
      case "settled":
        return this.settled(ending.value, say);
    }
  }

  private stopped(reason: StopReason, say: (text: string) => void): ExecOutcome {
    const { timeoutMs } = this.job.request;
    if (reason === "killed") return { status: "cancelled", exitCode: exitCodes.killed, error: "killed" };
    if (reason === "timed_out") {
      return {
        status: "timed_out",
        exitCode: exitCodes.timedOut,
        error: `timed out after ${timeoutMs} ms`,
      };
    }
    if (reason === "memory") {
      const message = memoryLimitMessage(this.job.memoryBytesMax);
      const held = Math.ceil((this.heap?.heldBytesAtStop ?? 0) / mebibyte);
      say(`javascript: ${message}: the module held ${held} MiB after garbage collection`);
      return { status: "failed", exitCode: javascriptLimits.memoryExitCode, error: message };
    }
    const message = `CPU limit of ${this.job.cpuMs} ms exceeded`;
    say(`javascript: ${message}`);
    return { status: "failed", exitCode: javascriptLimits.cpuExitCode, error: message };
  }

  /** The default export's value as the run's result: JSON, within `resultBytesMax`. */
  private settled(value: unknown, say: (text: string) => void): ExecOutcome {
    const exitCode = this.exitCode();
    const status = exitCode === 0 ? "completed" : "failed";
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      const message = `the result is not JSON: ${(error as Error).message}`;
      say(`javascript: ${message}`);
      return { status: "failed", exitCode: 1, error: message };
    }
    if (json === undefined) return { status, exitCode };
    const bytes = encoder.encode(json).byteLength;
    if (bytes > this.job.resultBytesMax) {
      const message = `the result is ${bytes} bytes of JSON, more than the limit of ${this.job.resultBytesMax}`;
      say(`javascript: ${message}; write large output to a file instead`);
      return { status: "failed", exitCode: 1, error: message };
    }
    return { status, exitCode, result: JSON.parse(json) as JsonValue };
  }
}
