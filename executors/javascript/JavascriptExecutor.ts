/**
 * The javascript executor as the workspace object drives it. Each run:
 *
 * 1. resolves its module graph from the workspace (modules.ts) before anything starts, and
 *    fails with Node's kind of message if an import cannot be satisfied;
 * 2. loads a fresh Dynamic Worker with `LOADER.load()` — never reused, so module state,
 *    globals and timers die with the run (see README.md for the measurements behind
 *    `load()` over `get()`);
 * 3. calls the guest runtime's `run` with the run's output sink, file capability and tools
 *    as arguments (revoked when it returns), and answers its outcome.
 *
 * The Worker has no bindings; its `globalOutbound` is the egress gateway for runs that may
 * reach the network and null (fetch fails at once) for the rest, never the default.
 */

import type { ExecutorContext } from "../context.ts";
import {
  COMPATIBILITY_DATE,
  type ExecOutcome,
  type ExecRequest,
  type Executor,
  exitCodes,
  type OutputSink,
} from "../contract.ts";
import { execLimits } from "../limits.ts";
import { builtinModules } from "./builtins.ts";
import { entryModule } from "./entryModule.ts";
import { javascriptLimits } from "./limits.ts";
import { resolveModules } from "./modules.ts";
import { type JavascriptGuestStub, type JavascriptJob, memoryLimitMessage, moduleNames } from "./protocol.ts";
import { javascriptRuntimeCode } from "./runtimeCode.ts";

const encoder = new TextEncoder();

function guardName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `__cubicle_guard_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function fail(sink: OutputSink, message: string, exitCode = 1): Promise<ExecOutcome> {
  await sink.write("stderr", encoder.encode(`${message}\n`));
  return { status: "failed", exitCode, error: message.split("\n")[0] ?? message };
}

/** An error the Worker itself threw: a module that does not compile, or the platform's CPU or memory limit. */
async function workerFailure(error: unknown, sink: OutputSink, cpuMs: number): Promise<ExecOutcome> {
  const message = error instanceof Error ? error.message : String(error);
  if (/exceeded (its )?CPU/i.test(message)) {
    return fail(sink, `javascript: CPU limit of ${cpuMs} ms exceeded`, javascriptLimits.cpuExitCode);
  }
  // The runtime ends an isolate over its memory ("Worker has exceeded memory limit.", "… exceeded its memory limit …").
  if (/exceeded (its )?memory limit/i.test(message)) {
    const stop = memoryLimitMessage(execLimits.javascriptMemoryBytesMax);
    return fail(sink, `javascript: ${stop}`, javascriptLimits.memoryExitCode);
  }
  // "Failed to start Worker:\nUncaught SyntaxError: …\n  at workspace/a.js:1:5" → what Node would print.
  const startFailure = message.replace(/^Failed to start Worker:\s*/, "").replace(/^Uncaught /, "");
  return fail(sink, startFailure.replace(/\bat workspace\//g, "at /workspace/"));
}

export function createJavascriptExecutor(context: ExecutorContext): Executor {
  const running = new Map<string, JavascriptGuestStub>();
  const killed = new Set<string>();

  async function run(request: ExecRequest, sink: OutputSink): Promise<ExecOutcome> {
    const guard = guardName();
    const mainName = `${guard}_main`;
    let code: string;
    try {
      code = await entryModule(request.code ?? "", mainName);
    } catch (error) {
      return fail(sink, `SyntaxError: ${(error as Error).message}`);
    }
    const graph = await resolveModules(code, request.cwd || "/workspace", context.fs, guard);
    if (!graph.ok) return fail(sink, graph.message);
    if (killed.has(request.execId)) return { status: "cancelled", exitCode: exitCodes.killed, error: "killed" };
    const cpuMs = Math.min(request.timeoutMs, execLimits.javascriptCpuMsMax);
    const { runtimeSource, gitSource } = javascriptRuntimeCode;
    const worker = context.loader.load({
      // The gateway's date; nodejs_compat gives module code node:util, node:buffer, node:crypto…
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: ["nodejs_compat"],
      mainModule: moduleNames.runtime,
      modules: {
        [moduleNames.runtime]: { js: runtimeSource },
        ...builtinModules(graph.builtins, gitSource),
        ...graph.modules,
      },
      env: {},
      // Never omitted: without it the module's fetch() would reach the internet unmetered.
      globalOutbound: context.outbound?.fetcher ?? null,
      // Every limit the Worker Loader takes. Enforced by the platform in production; local workerd
      // accepts both and enforces neither (measured), so guest/guard.ts stops CPU-bound loops there.
      limits: { cpuMs, subRequests: execLimits.javascriptSubrequestsMax },
    });
    const guest = worker.getEntrypoint() as unknown as JavascriptGuestStub;
    const job: JavascriptJob = {
      request,
      entry: graph.entry,
      mainName,
      guardName: guard,
      cpuMs,
      memoryBytesMax: execLimits.javascriptMemoryBytesMax,
      resultBytesMax: execLimits.javascriptResultBytesMax,
    };
    running.set(request.execId, guest);
    try {
      return await guest.run(job, sink, context.fs, context.tools);
    } catch (error) {
      return workerFailure(error, sink, cpuMs);
    } finally {
      running.delete(request.execId);
    }
  }

  return {
    run,
    async kill(execId: string) {
      killed.add(execId);
      await running.get(execId)?.kill(execId);
    },
  };
}
