/**
 * Errors the shell reports about a command carry its line, as `bash -c` prints them:
 * `bash: line 3: x: readonly variable`, `bash: line 1: nope: command not found`. just-bash
 * wrote most of them without the line (`bash: nope: command not found`), each message
 * built at its own site; rather than edit every site, a simple command's stderr (returned
 * or thrown) has `line N: ` put after a leading `bash: ` on each line that lacks one. A
 * nested `bash`/`sh` is left alone: its messages are its own.
 */
import type { Patch } from "./patch.ts";

const helpers = `
async function __cbWithLine(run, node) {
  const first = node?.name?.parts?.[0];
  const name = node?.name?.parts?.length === 1 && first?.type === "Literal" ? first.value : "";
  if (name === "bash" || name === "sh") return run();
  const fix = (text) => text.replace(/^bash: (?!line \\d+: |-c: )/gm, \`bash: line \${node?.line ?? 1}: \`);
  try {
    const result = await run();
    if (typeof result?.stderr === "string" && result.stderr.includes("bash: ")) return { ...result, stderr: fix(result.stderr) };
    return result;
  } catch (error) {
    if (typeof error?.stderr === "string" && error.stderr.includes("bash: ")) {
      try {
        error.stderr = fix(error.stderr);
      } catch {}
    }
    throw error;
  }
}
`;

export const errorLineNumbers: Patch = {
  name: "error-line-numbers",
  why: "bash -c prefixes the shell's errors about a command with its line: `bash: line 1: nope: command not found`.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: "async executeSimpleCommandInner(t,n,r){",
      replace:
        "async executeSimpleCommandInner(t,n,r){return __cbWithLine(()=>this.__cbSimpleCommandInner(t,n,r),t)}async __cbSimpleCommandInner(t,n,r){",
    },
  ],
  shows: [
    "nosuchcommand; echo $?",
    'readonly r=1; r=2; echo "r=$r"',
    "set -C; echo a > f; echo b > f; cat < missing.txt; echo done",
  ],
};
