/**
 * The run's guard: the function instrumented module code calls at every loop test and
 * function entry (../instrument.ts), and what decides that a run must stop.
 *
 * Why it exists: a Dynamic Worker shares its thread with the workspace object that loaded
 * it, and workerd (locally) neither enforces `limits.cpuMs` nor can interrupt a busy loop,
 * so `while (true) {}` would hold the whole runtime. The guard makes module code stop
 * itself: once the run is stopped (timeout, kill, CPU, memory), every guarded call throws, which
 * unwinds the loop and every function above it. On Cloudflare, `limits.cpuMs` also applies
 * and `Date.now()` stands still during pure CPU work, so there the platform's limit is the
 * one a busy loop meets; the guard still ends it on kill and timeout once it yields.
 *
 * CPU is estimated, not measured: a heartbeat timer can only fire when the event loop
 * turns, so how late it fires is how long something held the thread. Memory is read where
 * the runtime lets the run read it (heapWatch.ts), at the same moments: clock reads and beats.
 *
 * Reading the clock costs ~300 ns in workerd (measured), thirty loop iterations, so the
 * guard reads it every `stride` calls and adapts the stride to read about once per
 * `clockReadIntervalMs`: a loop whose iterations are slow (say, each allocates megabytes)
 * is looked at every iteration or so, a tight one every `guardCallsPerClockReadMax`.
 */
import { javascriptLimits } from "../limits.ts";
import type { HeapWatch } from "./heapWatch.ts";

export type StopReason = "killed" | "timed_out" | "cpu" | "memory";

/** Thrown at the guarded call that noticed the stop, and at every one after it. */
export class RunStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`the run was stopped (${reason})`);
    this.name = "RunStopped";
  }
}

export class Guard {
  stopReason: StopReason | null = null;
  /** Calls between clock reads, and calls left until the next one. */
  private stride = 1;
  private callsLeft = 1;
  private lastReadAt: number;
  private cpuMs = 0;
  private beatDueAt: number;
  private beat: ReturnType<typeof setTimeout> | undefined;
  private readonly deadlineAt: number;
  private onStop: (reason: StopReason) => void = () => {};

  constructor(
    timeoutMs: number,
    private readonly cpuMsMax: number,
    private readonly heap?: HeapWatch,
  ) {
    const now = Date.now();
    this.lastReadAt = now;
    this.deadlineAt = now + timeoutMs;
    this.beatDueAt = now + javascriptLimits.heartbeatMs;
    this.scheduleBeat();
  }

  /** Called once, with the first reason the run stops for. */
  whenStopped(callback: (reason: StopReason) => void): void {
    this.onStop = callback;
  }

  /** What instrumented code calls; returns true so it can sit in a loop's test (`guard() && (test)`). */
  readonly check = (): true => {
    if (this.stopReason === null && --this.callsLeft === 0) this.readClock();
    if (this.stopReason !== null) throw new RunStopped(this.stopReason);
    return true;
  };

  /** CPU the run has held the thread for, by the heartbeat's estimate, up to now. */
  cpuUsedMs(now = Date.now()): number {
    return this.cpuMs + Math.max(0, now - this.beatDueAt - javascriptLimits.heartbeatSlackMs);
  }

  stop(reason: StopReason): void {
    if (this.stopReason !== null) return;
    this.stopReason = reason;
    this.dispose();
    this.onStop(reason);
  }

  dispose(): void {
    clearTimeout(this.beat);
  }

  private readClock(): void {
    const now = Date.now();
    this.adaptStride(now - this.lastReadAt);
    this.lastReadAt = now;
    if (now >= this.deadlineAt) this.stop("timed_out");
    else if (this.cpuUsedMs(now) >= this.cpuMsMax) this.stop("cpu");
    else if (this.heap?.overLimit(now)) this.stop("memory");
  }

  /** Doubles the stride while reads come sooner than the interval, and cuts it at once when they come later. */
  private adaptStride(elapsedMs: number): void {
    const { clockReadIntervalMs, guardCallsPerClockReadMax } = javascriptLimits;
    if (elapsedMs < clockReadIntervalMs) this.stride = Math.min(this.stride * 2, guardCallsPerClockReadMax);
    else if (elapsedMs > clockReadIntervalMs)
      this.stride = Math.max(1, Math.floor((this.stride * clockReadIntervalMs) / elapsedMs));
    this.callsLeft = this.stride;
  }

  private scheduleBeat(): void {
    this.beat = setTimeout(() => {
      const now = Date.now();
      const lateMs = now - this.beatDueAt;
      if (lateMs > javascriptLimits.heartbeatSlackMs) this.cpuMs += lateMs;
      this.beatDueAt = now + javascriptLimits.heartbeatMs;
      if (this.cpuMs >= this.cpuMsMax) this.stop("cpu");
      else if (this.heap?.overLimit(now)) this.stop("memory");
      else this.scheduleBeat();
    }, javascriptLimits.heartbeatMs);
  }
}
