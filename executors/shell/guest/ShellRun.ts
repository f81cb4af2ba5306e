/**
 * One shell run: a fresh just-bash `Bash` over a fresh ShellFs, its output streamed to the
 * sink, stopped by its timeout or a kill.
 *
 * Stopping is cooperative. just-bash checks its abort signal and its deadline
 * (`maxExecutionTimeMs`, read from `Date.now()`) before every statement and inside `sleep`,
 * so a run stops within one statement; a run that does not stop (a stuck filesystem call)
 * is given up on `stopGraceMs` after it was told to. A `kill` only arrives when the isolate
 * is free to take the call: a script that never sleeps or touches the workspace keeps the
 * isolate busy until its deadline or its command budget (`shellCommandsMax`) ends it. In
 * production `Date.now()` stands still while code runs without I/O, so there only the
 * command budget ends such a loop.
 */
import { Bash, type BashExecResult } from "just-bash";
import { OutputPump } from "../../../container/wire/outputPump.ts";
import {
  type ExecOutcome,
  type ExecRequest,
  exitCodes,
  type OutputPiece,
  type OutputSink,
  type WorkspaceFsApi,
  type WorkspaceToolsApi,
} from "../../contract.ts";
import { execLimits } from "../../limits.ts";
import { shellLimits } from "../limits.ts";
import { latin1String, shellTextBytes } from "./bytes.ts";
import { gitCommand } from "./gitCommand.ts";
import { explainMissingCommands } from "./missingCommand.ts";
import { OutputDevice, outputDevicePath } from "./outputDevice.ts";
import { publishCommands } from "./publishCommands.ts";
import { homeDir, ShellFs, workspaceMountPoint } from "./shellFs.ts";
import { statCommand } from "./statCommand.ts";
import { streamOutputTransform } from "./streamTransform.ts";
import { WorkspaceFs } from "./workspaceFs.ts";

type StopReason = "killed" | "timed_out" | "sink_failed";

/** just-bash's own notes on why it stopped, which the outcome reports instead. */
const stopNotes = /^bash: .*(?:execution aborted|exceeded (?:its )?execution deadline.*)\n?$/gm;
/** just-bash's advice to its embedder, which means nothing to the script's author. */
const limitAdvice = /, increase executionLimits\.\w+/g;
const limitMessage = /^bash: (.*(?:limit|too many|exceeded).*)$/m;

export class ShellRun {
  private readonly controller = new AbortController();
  private stopReason: StopReason | undefined;
  private sinkError: unknown;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private abandon: (() => void) | undefined;

  constructor(
    private readonly request: ExecRequest,
    private readonly sink: OutputSink,
    private readonly fs: WorkspaceFsApi,
    /** Publishing (`publish`, `share`); null when the run was given none. */
    private readonly tools: WorkspaceToolsApi | null = null,
  ) {}

  kill(): void {
    this.stop("killed");
  }

  /** Aborts the shell, and gives it `stopGraceMs` to notice before the run is given up on. */
  private stop(reason: StopReason): void {
    this.stopReason ??= reason;
    this.controller.abort(reason);
    this.graceTimer ??= setTimeout(() => this.abandon?.(), shellLimits.stopGraceMs);
  }

  async run(): Promise<ExecOutcome> {
    const { request } = this;
    const pump = new OutputPump(this.sink, request.outputBytesMax, (error) => {
      this.sinkError = error;
      this.stop("sink_failed");
    });
    const fs = new ShellFs({
      workspace: new WorkspaceFs(this.fs, workspaceMountPoint),
      device: { path: outputDevicePath, filesystem: new OutputDevice(pump) },
    });
    const cwd = request.cwd || workspaceMountPoint;
    const missing = await this.missingDirectory(fs, cwd);
    if (missing) {
      await pump.write("stderr", shellTextBytes(`bash: cd: ${cwd}: ${missing}\n`));
      return withTail(
        { status: "failed", exitCode: 1, error: `working directory ${cwd}: ${missing}` },
        await pump.finish(),
      );
    }

    const result = await this.execute(this.shell(fs, cwd));
    const stderr = explainMissingCommands((result?.stderr ?? "").replace(limitAdvice, ""));
    await pump.write("stdout", shellTextBytes(result?.stdout ?? ""));
    await pump.write("stderr", shellTextBytes(this.stopReason ? stderr.replace(stopNotes, "") : stderr));
    const tail = await pump.finish();
    // A sink that failed while the tail waited makes the run fail, as it would have mid-run.
    return withTail(this.outcome(result, stderr), tail);
  }

  /** The script's result, or null when the shell did not stop in time after being told to. */
  private async execute(bash: Bash): Promise<BashExecResult | null> {
    const { request } = this;
    const startedAt = Date.now();
    const timer = setTimeout(() => this.stop("timed_out"), request.timeoutMs);
    const abandoned = new Promise<null>((resolve) => {
      this.abandon = () => resolve(null);
    });
    try {
      const exec = bash.exec(request.command ?? "", {
        stdin: latin1String(request.stdin),
        stdinKind: "bytes",
        rawScript: true,
        signal: this.controller.signal,
      });
      const result = await Promise.race([exec, abandoned]);
      // just-bash's own deadline ends a busy script (with `timeout`'s 124 too) before our timer can fire.
      if (result?.exitCode === exitCodes.timedOut && Date.now() - startedAt >= request.timeoutMs)
        this.stop("timed_out");
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { stdout: "", stderr: `bash: ${message}\n`, exitCode: 1, env: {} };
    } finally {
      clearTimeout(timer);
      clearTimeout(this.graceTimer);
    }
  }

  private outcome(result: BashExecResult | null, stderr: string): ExecOutcome {
    const { timeoutMs } = this.request;
    const late = result === null ? `; the shell did not stop within ${shellLimits.stopGraceMs} ms` : "";
    switch (this.stopReason) {
      case "killed":
        return { status: "cancelled", exitCode: exitCodes.killed, error: `killed${late}` };
      case "timed_out":
        return {
          status: "timed_out",
          exitCode: exitCodes.timedOut,
          error: `timed out after ${timeoutMs} ms${late}`,
        };
      case "sink_failed":
        // Whatever the script's own status, its output is lost: the run failed.
        return { status: "failed", exitCode: 1, error: `output sink failed: ${String(this.sinkError)}` };
    }
    const exitCode = result?.exitCode ?? 1;
    if (exitCode === 0) return { status: "completed", exitCode };
    // just-bash ends a run that breaks one of its limits with 126 and says which on stderr.
    const limit = exitCode === 126 ? limitMessage.exec(stderr.trimEnd().split("\n").at(-1) ?? "") : null;
    return limit ? { status: "failed", exitCode, error: `shell limit: ${limit[1]}` } : { status: "failed", exitCode };
  }

  /** Why `cwd` cannot be the working directory, or null when it can. */
  private async missingDirectory(fs: ShellFs, cwd: string): Promise<string | null> {
    if (cwd === workspaceMountPoint) return null;
    if (!cwd.startsWith("/")) return "not an absolute path";
    try {
      return (await fs.stat(cwd)).isDirectory ? null : "Not a directory";
    } catch {
      return "No such file or directory";
    }
  }

  private shell(fs: ShellFs, cwd: string): Bash {
    const { request } = this;
    const bash = new Bash({
      fs,
      cwd,
      env: { HOME: homeDir, PATH: "/usr/bin:/bin", ...request.env, PWD: cwd },
      customCommands: [
        ...publishCommands(this.tools, workspaceMountPoint),
        gitCommand(this.fs),
        statCommand(this.fs, workspaceMountPoint),
      ],
      executionLimits: {
        maxLoopIterations: execLimits.shellLoopIterationsMax,
        maxCommandCount: execLimits.shellCommandsMax,
        maxOutputSize: shellLimits.producedBytesMax,
        maxExecutionTimeMs: request.timeoutMs,
      },
      // The Dynamic Worker is the sandbox; patching its globals would only break the
      // guest's own timers while a script runs.
      defenseInDepth: false,
      // The isolate's outbound, the egress gateway, refuses private addresses and meters the
      // bytes. just-bash's own private-range check (on by default wherever `process` exists)
      // resolves names with node:dns, which workerd lacks, so it would refuse every hostname.
      ...(request.egress ? { network: { dangerouslyAllowFullInternetAccess: true, denyPrivateRanges: false } } : {}),
    });
    bash.registerTransformPlugin(streamOutputTransform());
    return bash;
  }
}

/** The outcome with the output kept for it, if any. */
function withTail(outcome: ExecOutcome, tail: OutputPiece[]): ExecOutcome {
  return tail.length > 0 ? { ...outcome, tail } : outcome;
}
