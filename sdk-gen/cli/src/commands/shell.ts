/**
 * `cubicle shell <ws>`: a line REPL over one executor. Each line is one exec that keeps the
 * directory and the variables of the lines before it (shellState.ts), with its output
 * streamed live. History is kept in ~/.config/cubicle/history. Ctrl-C stops the running
 * command; Ctrl-D or `exit` ends the session with the last command's status. With
 * `--json`, each line answers one JSON object (command, exit code, output, directory).
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { ExecStream, Workspace } from "@cubicle/sdk";
import type { Command } from "commander";
import { configDir } from "../config.ts";
import { cliLimits } from "../limits.ts";
import { clientFor, examples, flagsOf } from "../output.ts";
import { MarkerSplitter, ShellState } from "../shellState.ts";
import { workspaceById } from "../workspace.ts";
import { type Executor, executorOption, exitStatus } from "./exec.ts";

export function registerShell(program: Command): void {
  program
    .command("shell")
    .description("an interactive shell in a workspace that keeps cwd and env between commands")
    .argument("<workspace>", "the workspace id")
    .addOption(executorOption().choices(["shell", "container"]))
    .addHelpText(
      "after",
      examples(
        "cubicle shell $WS",
        "cubicle shell $WS --executor container",
        "printf 'cd src\\nls\\n' | cubicle --json shell $WS",
      ),
    )
    .action(async (workspaceId: string, options: { executor: Executor }, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      process.exitCode = await repl(workspace, options.executor, Boolean(flags.json));
    });
}

/** Where a line's output goes: the terminal as it comes, or kept for a JSON answer. */
interface Sink {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const terminal: Sink = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

async function repl(workspace: Workspace, executor: Executor, json: boolean): Promise<number> {
  const state = new ShellState();
  // A fresh run's variables, so that only what the user sets is carried.
  const discard: Sink = { stdout: () => {}, stderr: () => {} };
  const probe = await runLine(workspace, executor, state, "true", discard, () => {});
  if (probe.trailer !== null) state.setBaseline(probe.trailer);
  const interactive = Boolean(process.stdin.isTTY) && !json;
  const lines = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
    history: loadHistory(),
    historySize: cliLimits.historyLinesMax,
  });
  let running: ExecStream | null = null;
  lines.on("SIGINT", () => {
    if (running?.id) void workspace.execs.kill(running.id).catch(() => {});
    else process.stdout.write("^C\n");
    prompt(lines, workspace, state, interactive && !running);
  });
  let status = 0;
  prompt(lines, workspace, state, interactive);
  for await (const line of lines) {
    const text = line.trim();
    if (text === "exit" || text === "logout") break;
    if (text) {
      saveHistory(text);
      const kept = { stdout: "", stderr: "" };
      const sink: Sink = json ? { stdout: (t) => (kept.stdout += t), stderr: (t) => (kept.stderr += t) } : terminal;
      const outcome = await runLine(workspace, executor, state, text, sink, (stream) => {
        running = stream;
      });
      running = null;
      status = outcome.status;
      const warning = outcome.trailer === null ? null : state.absorb(outcome.trailer);
      if (warning) process.stderr.write(`cubicle: ${warning}\n`);
      if (json)
        process.stdout.write(`${JSON.stringify({ command: text, exitCode: status, ...kept, cwd: state.cwd })}\n`);
    }
    prompt(lines, workspace, state, interactive);
  }
  lines.close();
  return status;
}

async function runLine(
  workspace: Workspace,
  executor: Executor,
  state: ShellState,
  line: string,
  sink: Sink,
  started: (stream: ExecStream) => void,
): Promise<{ status: number; trailer: string | null }> {
  const stream = workspace.exec.stream({
    executor: executor === "container" ? "container" : "shell",
    command: state.wrap(line),
    cwd: state.cwd,
    env: state.env,
  });
  started(stream);
  const splitter = new MarkerSplitter(state.marker);
  for await (const event of stream) {
    if (event.stream === "exit") {
      const { rest, trailer } = splitter.end();
      sink.stdout(rest);
      return { status: exitStatus(event.status, event.exitCode), trailer };
    }
    if (event.stream === "stdout") sink.stdout(splitter.push(event.text));
    else sink.stderr(event.text);
  }
  return { status: 1, trailer: null };
}

function prompt(lines: Interface, workspace: Workspace, state: ShellState, show: boolean): void {
  if (!show) return;
  lines.setPrompt(`${workspace.id}:${state.cwd}$ `);
  lines.prompt();
}

function historyPath(): string {
  return join(configDir(), "history");
}

/** The history file's lines, newest first, as readline wants them. */
function loadHistory(): string[] {
  try {
    const lines = readFileSync(historyPath(), "utf8").split("\n").filter(Boolean);
    return lines.slice(-cliLimits.historyLinesMax).reverse();
  } catch {
    return [];
  }
}

function saveHistory(line: string): void {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  appendFileSync(historyPath(), `${line.replaceAll("\n", " ")}\n`, { mode: 0o600 });
}
