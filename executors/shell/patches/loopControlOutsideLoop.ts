/**
 * `break` and `continue` where no loop encloses them (a subshell inside a loop is a new
 * process, so the loop is not its) print bash's "only meaningful in a `for', `while', or
 * `until' loop" and return 0; the subshell goes on. just-bash ended the subshell silently,
 * or did nothing at all outside any loop.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbNotInLoop(e, name) {
  return { stdout: "", stderr: \`bash: line \${e.state.currentLine ?? 1}: \${name}: only meaningful in a \\\`for', \\\`while', or \\\`until' loop\\n\`, exitCode: 0 };
}
`;

const edit = (name: string) => ({
  find: `if(e.state.loopDepth===0){if(e.state.parentHasLoopContext)throw new hr;return Fe}if(t.length>1)throw new he(1,"",\`bash: ${name}:`,
  replace: `if(e.state.loopDepth===0){return __cbNotInLoop(e,"${name}")}if(t.length>1)throw new he(1,"",\`bash: ${name}:`,
});

export const loopControlOutsideLoop: Patch = {
  name: "loop-control-outside-loop",
  why: "break and continue in a subshell of a loop, or outside any loop, print bash's message and go on.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    edit("break"),
    edit("continue"),
  ],
  shows: [
    "for i in 1 2; do (continue; echo never); echo after $i; done",
    "for i in 1 2; do (break); echo loop $i; done; continue; echo $?",
  ],
};
