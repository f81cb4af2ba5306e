/**
 * A command substitution inside arithmetic (`$(( $(wc -l < f) + 1 ))`, `$(( n * $(f) ))`)
 * runs in the shell that evaluates it: its variables, functions and working directory.
 * just-bash ran it through the embedder's `exec`, a fresh top-level shell, so a variable
 * read there was empty, a function was "command not found", and a relative path was
 * resolved against the first directory of the run. It now runs as any `$( )` does.
 * (Applied after arith-int64, whose edit of the same lines it builds on.)
 */
import type { Patch } from "./patch.ts";

const inShell = '(await Tn(e,{type:"CommandSubstitution",body:or(t.command)}))';

export const arithCommandSubstitution: Patch = {
  name: "arith-command-substitution",
  why: "$( ) inside $(( )) sees the shell's variables, functions and working directory.",
  edits: [
    {
      find: 'if(e.execFn){let i=await e.execFn(t.command,{signal:e.state.signal});i.stderr&&(e.state.expansionStderr=(e.state.expansionStderr||"")+i.stderr);let o=i.stdout.trim();return __cbI(o)}return 0',
      replace: `{let o=${inShell}.trim();return __cbI(o)}`,
    },
    {
      find: 'return e.execFn?(await e.execFn(t.command,{signal:e.state.signal})).stdout.trim():"0"',
      replace: `return ${inShell}.trim()`,
    },
  ],
  shows: [
    'f=5; echo $(( $(echo "$f") * 2 ))',
    "fact() { (($1 <= 1)) && { echo 1; return; }; echo $(( $1 * $(fact $(($1 - 1))) )); }; fact 10",
    "mkdir -p d && cd d && printf 'a\\nb\\n' > x && echo $(( $(wc -l < x) + 1 )); cd .. && rm -r d",
  ],
};
