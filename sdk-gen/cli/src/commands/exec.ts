/**
 * `cubicle exec <ws> -- <command>`: runs one command, streaming its stdout and stderr as
 * they come (the SDK's stream resumes after a dropped connection, each chunk once), and
 * exits with the command's exit code.
 */
import type { ExecEvent, ExecParams, ExecStream } from "@cubicle/sdk";
import { type Command, Option } from "commander";
import { CliError, clientFor, collectPairs, examples, flagsOf, printJson } from "../output.ts";
import { workspaceById } from "../workspace.ts";

export type Executor = "shell" | "javascript" | "container";

export interface RunOptions {
  executor: Executor;
  cwd?: string;
  env?: Record<string, string>;
  timeout?: number;
  input?: string;
  egress?: boolean;
  snapshotBefore?: boolean;
}

export const executorOption = () =>
  new Option("-e, --executor <executor>", "shell (bash, milliseconds), container (any Linux binary) or javascript")
    .choices(["shell", "javascript", "container"])
    .default("shell");

export function registerExec(program: Command): void {
  program
    .command("exec")
    .description("run a command in a workspace, streaming its output; exits with its exit code")
    .argument("<workspace>", "the workspace id")
    .argument("<command...>", "the command line (after --); for javascript, the module's source")
    .addOption(executorOption())
    .option("--cwd <dir>", "the working directory: /workspace (default), a directory under it, or /tmp")
    .option("--env <NAME=value>", "an environment variable (repeatable)", collectPairs)
    .option("--timeout <ms>", "how long the run may take, in milliseconds", Number)
    .option("--input <json>", "javascript: the value passed to the module's default export")
    .option("--egress", "container: let the command reach the internet (on plans with egress)")
    .option("--snapshot-before", "take a snapshot just before the run and print its id: one restore undoes the command")
    .addHelpText(
      "after",
      examples(
        "cubicle exec $WS -- ls -la",
        "cubicle exec $WS --snapshot-before -- 'rm -rf build'",
        "cubicle exec $WS --executor container -- python3 -c 'print(1 + 1)'",
        `cubicle exec $WS --executor javascript --input 21 -- 'export default (n) => n * 2'`,
      ),
    )
    .action(async (workspaceId: string, words: string[], options: RunOptions, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      const params = execParams(words.join(" "), options);
      if (flags.json || options.executor === "javascript") {
        const result = await workspace.exec(params);
        if (flags.json) printJson(result);
        else {
          if (result.snapshotId) announceSnapshot(workspaceId, result.snapshotId);
          process.stdout.write(result.stdout);
          process.stderr.write(result.stderr);
          if (result.result !== undefined) process.stdout.write(`${JSON.stringify(result.result)}\n`);
        }
        process.exitCode = exitStatus(result.status, result.exitCode);
        return;
      }
      process.exitCode = await streamRun(announcing(workspace.exec.stream(params), workspaceId));
    });
}

/** The stream's events, with the snapshot taken before the run announced ahead of the first. */
async function* announcing(stream: ExecStream, workspaceId: string): AsyncGenerator<ExecEvent> {
  let first = true;
  for await (const event of stream) {
    if (first && stream.snapshotId) announceSnapshot(workspaceId, stream.snapshotId);
    first = false;
    yield event;
  }
}

/** On stderr before the output: stdout stays the command's own. */
function announceSnapshot(workspaceId: string, snapshotId: string): void {
  process.stderr.write(
    `cubicle: took ${snapshotId} before the run; undo it with: cubicle restore ${workspaceId} --snapshot ${snapshotId}\n`,
  );
}

export function execParams(source: string, options: RunOptions): ExecParams {
  const common = {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
    ...(options.egress ? { egress: true } : {}),
    ...(options.snapshotBefore ? { snapshot: "before" as const } : {}),
  };
  if (options.executor !== "javascript") return { executor: options.executor, command: source, ...common };
  let input: unknown;
  if (options.input !== undefined) {
    try {
      input = JSON.parse(options.input);
    } catch {
      throw new CliError("--input must be JSON", 2);
    }
  }
  return { executor: "javascript", code: source, ...(input === undefined ? {} : { input }), ...common };
}

/** Writes a run's output as it arrives and answers the exit status to end with. */
export async function streamRun(
  stream: AsyncIterable<
    | { stream: "stdout" | "stderr"; text: string; base64?: string }
    | { stream: "exit"; status: string; exitCode: number | null }
  >,
  write: (stream: "stdout" | "stderr", bytes: string | Uint8Array) => void = (s, b) => process[s].write(b),
): Promise<number> {
  for await (const event of stream) {
    if (event.stream === "exit") return exitStatus(event.status, event.exitCode);
    write(event.stream, event.base64 === undefined ? event.text : Buffer.from(event.base64, "base64"));
  }
  throw new CliError("the run's output ended before its exit status");
}

/** The command's own exit code; for a run that has none, the code a shell would give. */
export function exitStatus(status: string, exitCode: number | null): number {
  if (exitCode !== null) return exitCode;
  if (status === "timed_out") {
    process.stderr.write("cubicle: the run timed out\n");
    return 124;
  }
  if (status === "cancelled") return 130;
  return status === "completed" ? 0 : 1;
}
