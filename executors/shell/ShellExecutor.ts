/**
 * The shell executor as the workspace object drives it: each run goes to the workspace's
 * warm Dynamic Worker (loadGuest.ts) with this run's file capability and output sink.
 */
import type { ExecOutcome, ExecRequest, Executor, OutputSink } from "../contract.ts";
import type { ExecutorContext } from "../registry.ts";
import { shellGuestCode } from "./guestCode.ts";
import { shellGuest } from "./loadGuest.ts";

export function createShellExecutor(context: ExecutorContext): Executor {
  const guest = () =>
    shellGuest(context.loader, {
      isolateKey: context.isolateKey,
      egress: context.egress,
      guestSource: shellGuestCode.guestSource,
      version: shellGuestCode.version,
    });
  return {
    run: (request: ExecRequest, sink: OutputSink): Promise<ExecOutcome> => guest().run(request, sink, context.fs),
    kill: (execId: string) => guest().kill(execId),
  };
}
