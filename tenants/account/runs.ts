/**
 * A run as the tenant's object drives it (TenantDO.exec): the API request's admission and
 * the run's slot in one step, the call to the workspace's object that runs it, and, when
 * that call answers with the ended run, the run's time and the workspace's size after it
 * recorded and the slot freed here, in the object that granted it. A run the caller waits
 * for costs three calls: gateway → tenant, tenant → workspace, workspace → executor
 * (docs/rooms.md, "The path of a shell exec"). A background run answers while it goes on; its
 * workspace meters it when it ends (TenantDO.finishRun, workspace/execs/runLedger.ts).
 */
import type { Granted, RunAnswer, StartExec } from "../workspace/execs/ExecRunner.ts";
import type { RunEnd, RunGrant, RunRequest } from "./rpc.ts";

/** The tenant's object as a run uses it: its own methods, called in place (no call leaves the object). */
export interface RunLedger {
  startRun(run: RunRequest): Promise<RunGrant>;
  /** Records the ended run and frees its slot. */
  finishRun(end: RunEnd): Promise<void>;
  /** Frees the slot of a run that never started, unbilled. */
  releaseRun(execId: string): Promise<void>;
}

/** Admits and grants the run, has `run` (the workspace's object) run it, and meters it when it ended. */
export async function runExec(
  ledger: RunLedger,
  workspaceId: string,
  start: StartExec,
  run: (grant: Granted) => Promise<RunAnswer>,
): Promise<RunAnswer> {
  const granted = await ledger.startRun({
    execId: start.execId,
    executor: start.executor,
    timeoutMs: start.timeoutMs,
    // The plan's egress gate covers any network at all, allow list or not.
    egress: start.egress !== null,
    workspaceId,
    keyId: start.keyId,
    ...(start.requestId ? { request: { requestId: start.requestId } } : {}),
  });
  const rate = granted.rate ? { rate: granted.rate } : {};
  if (!granted.ok) {
    const { code, detail: message, retryAfterSeconds } = granted;
    return { ok: false, code, message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }), ...rate };
  }
  const { ok: _, rate: __, ...grant } = granted;
  let answer: RunAnswer;
  try {
    answer = await run(grant);
  } catch (error) {
    // The workspace's object failed or was reset mid-run: the loss is ours, so it is not billed.
    await ledger.releaseRun(start.execId);
    throw error;
  }
  if ("ok" in answer) {
    // Refused after the slot (the executor missing or starting, the snapshot quota): it never ran.
    await ledger.releaseRun(start.execId);
    return { ...answer, ...rate };
  }
  if (!start.background) {
    await ledger.finishRun({
      execId: start.execId,
      executor: start.executor,
      durationMs: answer.durationMs ?? 0,
      workspaceId,
      keyId: start.keyId,
      storage: { sizeBytes: answer.stats.uniqueBytes, revision: answer.stats.revision },
    });
  }
  return { ...answer, ...rate };
}
