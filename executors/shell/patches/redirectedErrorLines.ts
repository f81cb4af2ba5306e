/**
 * The shell's own errors keep their `line N:` when the command's stderr is redirected
 * (`nope 2>&1`, `declare -p x 2>err`): error-line-numbers puts the line into a command's
 * stderr after the command returns, by which time a redirection had already sent it to
 * stdout or a file without it. The same rewrite (a line starting `bash: ` without `line N: `
 * or `-c: `) is now also made where the command's own redirection of fd 2 (`2>…`, `&>…`)
 * takes its stderr elsewhere. The shell guest's streaming redirections
 * (executors/shell/guest/streamTransform.ts) carry `__cbDevice` and do not count: stderr
 * left where it was reads as before.
 */
import type { Patch } from "./patch.ts";

export const redirectedErrorLines: Patch = {
  name: "redirected-error-lines",
  why: "bash: line N: stays on the shell's errors when the command's stderr is redirected (2>&1, 2>file).",
  edits: [
    {
      find: 'if(l!==""||c!==""){let x=l,S=c;',
      replace:
        'if(l!==""||c!==""){let x=l,S=n.some(R=>!R.__cbDevice&&(R.fd===2||R.operator==="&>"||R.operator==="&>>"))&&c.includes("bash: ")?c.replace(/^bash: (?!line \\d+: |-c: )/gm,`bash: line ${e.state.currentLine??1}: `):c;',
    },
  ],
  shows: [
    'undefined_cmd arg 2>&1; echo "rc=$?"; declare -p nothere 2>&1\nf() { :; }; unset -f f; type f 2>&1 | head -1; nope 2>err.txt; cat err.txt',
  ],
};
