/**
 * Tuning of the javascript executor's guest runtime, each with its reason. The limits a
 * user meets (result size, modules, CPU, runs per workspace) are in ../limits.ts.
 */
export const javascriptLimits = {
  /** The guard reads the clock once per this many calls: often enough to stop a loop within a millisecond or so. */
  guardCallsPerClockRead: 256,
  /**
   * The CPU heartbeat: a timer that can only fire when the event loop turns. How late it
   * fires is how long the thread was held; lateness under `heartbeatSlackMs` is scheduling
   * noise and not counted, so a long idle run does not accrue phantom CPU.
   */
  heartbeatMs: 100,
  heartbeatSlackMs: 10,
  /** Exit codes, as a shell reports them: killed (128 + SIGKILL), timed out (coreutils `timeout`), CPU (128 + SIGXCPU). */
  killedExitCode: 137,
  timedOutExitCode: 124,
  cpuExitCode: 152,
} as const;
