/**
 * The shell executor as the workspace object drives it: each run goes to a warm Dynamic
 * Worker (loadGuest.ts) with this run's file capability and output sink. Runs without
 * network share the tenant's isolate; runs with it get one per outbound attribution
 * (workspace, key and allow list), because the isolate's outbound bills whoever it was
 * created for and lets through only what that run was allowed.
 */

import type { ExecutorContext } from "../context.ts";
import type { ExecOutcome, ExecRequest, Executor, OutputSink } from "../contract.ts";
import { shellGuestCode } from "./guestCode.ts";
import { shellGuest } from "./loadGuest.ts";

export function createShellExecutor(context: ExecutorContext): Executor {
  const guest = () =>
    shellGuest(context.loader, {
      isolateKey: context.outbound ? `${context.isolateKey}:${context.outbound.attribution}` : context.isolateKey,
      outbound: context.outbound?.fetcher ?? null,
      guestSource: shellGuestCode.guestSource,
      version: shellGuestCode.version,
    });
  return {
    run: (request: ExecRequest, sink: OutputSink): Promise<ExecOutcome> =>
      guest().run(request, sink, context.fs, context.tools),
    kill: (execId: string) => guest().kill(execId),
  };
}
