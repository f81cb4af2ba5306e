/**
 * Live output for just-bash, which has no output callback: `Bash.exec` returns stdout and
 * stderr as two strings when the script ends, and loses them if it is stopped.
 *
 * So before the script runs, this transform gives every command whose output would reach
 * the script's own stdout/stderr the redirections `1>>stdout-device 2>>stderr-device`
 * (outputDevice.ts), placed *before* the command's own redirections so those still win
 * (`cmd >file`, `cmd 2>&1` behave as in bash, where the shell's fds are the device). Each
 * command's output then leaves as soon as the command ends, bytes exactly as the command
 * produced them. Loops, if/case, groups and subshells whose output is not redirected are
 * walked into, so a `while` loop streams per iteration; a pipeline's inner commands keep
 * their stdout in the pipe. Function bodies, `$(...)` and nested shells are left alone:
 * a function call's output leaves when the call ends.
 *
 * Scripts that use `exec` (which may redirect the shell's own fds) are left untouched and
 * their output arrives when they end, as does anything a command prints outside this
 * scheme (assignment-only commands, shell errors).
 */
import type { CommandNode, PipelineNode, SimpleCommandNode, StatementNode, TransformPlugin } from "just-bash";
import { outputPaths } from "./outputDevice.ts";

type Redirection = SimpleCommandNode["redirections"][number];
type Compound = Exclude<CommandNode, SimpleCommandNode | { type: "FunctionDef" }>;

interface Reach {
  stdout: boolean;
  stderr: boolean;
}

/** Operators that only read: a command with just these still writes to the shell's stdout/stderr. */
const inputOperators = new Set(["<", "<<", "<<-", "<<<", "<&"]);

/**
 * One redirection to an output device, marked as the stream's own (`__cbDevice`): the
 * redirected-error-lines patch gives the shell's errors their `line N:` only where the
 * script itself redirects stderr, as the stream's redirection is no redirection to bash.
 */
function redirection(fd: 1 | 2, path: string): Redirection {
  const device: Redirection = {
    type: "Redirection",
    fd,
    operator: ">>",
    target: { type: "Word", parts: [{ type: "Literal", value: path }] },
  };
  return Object.assign(device, { __cbDevice: true });
}

function statementLists(command: Compound): StatementNode[][] | null {
  switch (command.type) {
    case "If":
      return [...command.clauses.flatMap((clause) => [clause.condition, clause.body]), command.elseBody ?? []];
    case "While":
    case "Until":
      return [command.condition, command.body];
    case "For":
    case "CStyleFor":
    case "Subshell":
    case "Group":
      return [command.body];
    case "Case":
      return command.items.map((item) => item.body);
    default:
      return null;
  }
}

function usesExec(statements: StatementNode[]): boolean {
  return statements.some((statement) =>
    statement.pipelines.some((pipeline) =>
      pipeline.commands.some((command) => {
        if (command.type === "SimpleCommand") {
          const part = command.name?.parts[0];
          return command.name?.parts.length === 1 && part?.type === "Literal" && part.value === "exec";
        }
        if (command.type === "FunctionDef") return false;
        return (statementLists(command) ?? []).some(usesExec);
      }),
    ),
  );
}

function streamCommand(command: CommandNode, reach: Reach): void {
  if (command.type === "FunctionDef") return;
  if (command.type === "SimpleCommand" && command.name === null) return;
  if (command.type !== "SimpleCommand" && reach.stdout && reach.stderr) {
    const lists = statementLists(command);
    if (lists && command.redirections.every((r) => inputOperators.has(r.operator))) {
      for (const list of lists) streamStatements(list);
      return;
    }
  }
  const added: Redirection[] = [];
  if (reach.stdout) added.push(redirection(1, outputPaths.stdout));
  if (reach.stderr) added.push(redirection(2, outputPaths.stderr));
  command.redirections.unshift(...added);
}

function streamPipeline(pipeline: PipelineNode): void {
  const last = pipeline.commands.length - 1;
  pipeline.commands.forEach((command, index) => {
    const stderrInPipe = index < last && (pipeline.pipeStderr?.[index] ?? false);
    streamCommand(command, { stdout: index === last, stderr: !stderrInPipe });
  });
}

function streamStatements(statements: StatementNode[]): void {
  for (const statement of statements) for (const pipeline of statement.pipelines) streamPipeline(pipeline);
}

/**
 * The transform, for one Bash instance running one script. just-bash also runs plugins on
 * the scripts of nested shells (`bash -c`, `xargs`), whose output belongs to their caller,
 * so only the first script it sees — the run's own — is changed.
 */
export function streamOutputTransform(): TransformPlugin {
  let used = false;
  return {
    name: "cubicle-stream-output",
    transform({ ast }) {
      if (!used && !usesExec(ast.statements)) streamStatements(ast.statements);
      used = true;
      return { ast };
    },
  };
}
