/**
 * Tuning of the javascript executor's guest runtime, each with its reason. The limits a
 * user meets (result size, modules, CPU, memory, runs per workspace) are in ../limits.ts.
 */
export const javascriptLimits = {
  /**
   * The guard reads the clock about this often while module code runs (guest/guard.ts): often
   * enough to stop a loop within a millisecond or so, and to look at memory between slow iterations.
   */
  clockReadIntervalMs: 1,
  /** At most this many guarded calls between clock reads; a read costs ~300 ns in workerd (measured), a tight iteration ~10 ns. */
  guardCallsPerClockReadMax: 256,
  /**
   * The CPU heartbeat: a timer that can only fire when the event loop turns. How late it
   * fires is how long the thread was held; lateness under `heartbeatSlackMs` is scheduling
   * noise and not counted, so a long idle run does not accrue phantom CPU.
   */
  heartbeatMs: 100,
  heartbeatSlackMs: 10,
  /**
   * Heap readings (guest/heapWatch.ts) walk the whole heap: 0.5 ms for the runtime alone,
   * ~70 ms per million small objects (measured). At most one every `memorySampleIntervalMs`,
   * and never more than 1 / `memorySampleCostFactor` of the run's time. At 25 ms, a loop
   * allocating as fast as V8 can (a few GB/s) gains at most ~100 MB between readings, far
   * below the ~1.4 GiB where V8 would abort the process.
   */
  memorySampleIntervalMs: 25,
  memorySampleCostFactor: 4,
  /**
   * Exit codes of this executor's own limits, as a shell reports them: CPU (128 + SIGXCPU),
   * memory (128 + SIGABRT, as `node` exits when its heap runs out). Killed and timed out are
   * every executor's (`exitCodes` in ../contract.ts).
   */
  cpuExitCode: 152,
  memoryExitCode: 134,
} as const;
