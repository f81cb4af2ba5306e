/**
 * The `trap` builtin, for the two conditions a script can meet without signals: `EXIT` runs
 * its command when the script ends (normally or by `exit`, whose status stands unless the
 * trap itself exits), and `ERR` runs its command after a command fails where `set -e` would
 * stop (not in a condition, not left of `&&`/`||`, not negated). just-bash had no `trap`,
 * so cleanup handlers never ran and every script using one printed "trap: command not
 * found". Signal traps (INT, TERM, …) are accepted and kept but never run: nothing sends the
 * shell a signal. A subshell shares its parent's traps rather than starting without them.
 */
import type { Patch } from "./patch.ts";

const helpers = `
const __cbSignalNumbers = { 0: "EXIT", 1: "HUP", 2: "INT", 3: "QUIT", 6: "ABRT", 9: "KILL", 10: "USR1", 12: "USR2", 13: "PIPE", 14: "ALRM", 15: "TERM" };
const __cbSignalNames = new Set(["EXIT", "ERR", "DEBUG", "RETURN", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"]);
function __cbSignalName(spec) {
  if (/^\\d+$/.test(spec)) return __cbSignalNumbers[Number(spec)];
  const name = spec.toUpperCase().replace(/^SIG/, "");
  return __cbSignalNames.has(name) ? name : undefined;
}
function __cbTrap(ctx, args) {
  const traps = (ctx.state.__cbTraps ??= {});
  const quote = (text) => "'" + text.replace(/'/g, "'\\\\''") + "'";
  let rest = args[0] === "--" ? args.slice(1) : args;
  if (rest.length === 0 || rest[0] === "-p") {
    const wanted = rest.slice(1).map(__cbSignalName);
    let out = "";
    for (const [name, action] of Object.entries(traps)) {
      if (wanted.length === 0 || wanted.includes(name)) out += \`trap -- \${quote(action)} \${name}\\n\`;
    }
    return { stdout: out, stderr: "", exitCode: 0 };
  }
  // One operand that names a signal resets it, as bash does.
  const reset = rest.length === 1 && __cbSignalName(rest[0]) !== undefined;
  const action = reset ? "-" : rest[0];
  let stderr = "", exitCode = 0;
  for (const spec of reset ? rest : rest.slice(1)) {
    const name = __cbSignalName(spec);
    if (name === undefined) {
      stderr += \`bash: trap: \${spec}: invalid signal specification\\n\`;
      exitCode = 1;
    } else if (action === "-") delete traps[name];
    else traps[name] = action;
  }
  return { stdout: "", stderr, exitCode };
}
async function __cbRunTrap(interp, action) {
  try {
    return await interp.executeScript(or(action));
  } catch (error) {
    if (error instanceof he) return { stdout: error.stdout, stderr: error.stderr, exitCode: error.exitCode, __cbExited: true };
    throw error;
  }
}
async function __cbRunWithExitTrap(interp, state, ast) {
  let result, thrown;
  try {
    result = await interp.executeScript(ast);
  } catch (error) {
    thrown = error;
  }
  const action = state.__cbTraps?.EXIT;
  // A run ended by a limit or an abort ends at once; only a normal end or \`exit\` runs the trap.
  if (action === undefined || (thrown !== undefined && !(thrown instanceof he))) {
    if (thrown !== undefined) throw thrown;
    return result;
  }
  delete state.__cbTraps.EXIT;
  const status = thrown ? thrown.exitCode : result.exitCode;
  state.lastExitCode = status;
  state.env.set("?", String(status));
  const trap = action === "" ? { stdout: "", stderr: "", exitCode: status } : await __cbRunTrap(interp, action);
  const exitCode = trap.__cbExited ? trap.exitCode : status;
  if (thrown) {
    thrown.stdout += trap.stdout;
    thrown.stderr += trap.stderr;
    thrown.exitCode = exitCode;
    throw thrown;
  }
  return { ...result, stdout: result.stdout + trap.stdout, stderr: result.stderr + trap.stderr, exitCode };
}
async function __cbErrTrap(interp, output, status) {
  const state = interp.ctx.state;
  const action = state.__cbTraps?.ERR;
  if (!action || state.__cbInErrTrap) return;
  state.__cbInErrTrap = true;
  try {
    const trap = await __cbRunTrap(interp, action);
    output.appendResult(trap);
  } finally {
    state.__cbInErrTrap = false;
    state.lastExitCode = status;
    state.env.set("?", String(status));
  }
}
`;

export const trapExitErr: Patch = {
  name: "trap-exit-err",
  why: "trap runs its EXIT command when the script ends and its ERR command after a command fails outside a condition.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'if(t==="shift")return Np(c,n);',
      replace: 'if(t==="shift")return Np(c,n);if(t==="trap")return __cbTrap(c,n);',
    },
    {
      find: "R=await new Yo(E,m).executeScript(x);",
      replace: "R=await __cbRunWithExitTrap(new Yo(E,m),m,x);",
    },
    {
      find: "if(this.ctx.state.errexitSafe=o||i||a,this.ctx.state.options.errexit&&r!==0",
      replace:
        "if(this.ctx.state.errexitSafe=o||i||a,r!==0&&s===t.pipelines.length-1&&!i&&!this.ctx.state.inCondition&&!a&&await __cbErrTrap(this,n,r),this.ctx.state.options.errexit&&r!==0",
    },
  ],
  shows: [
    "trap 'echo cleanup' EXIT; echo main",
    "trap 'echo \"cleanup, status $?\"' EXIT; echo working; exit 2",
    "trap 'echo caught $?' ERR; false; echo next; false || echo handled; if false; then :; fi; ! false; echo end",
    "trap 'echo bye' 0; trap -p; trap - EXIT; trap; echo none",
    "set -e; trap 'echo err' ERR; trap 'echo exit' EXIT; echo a; false; echo never",
    "trap 'echo x' NOPE; echo $?",
  ],
};
