/**
 * A loop left by `break`, or whose last pass ended in `continue`, has status 0 (the status
 * of `break`/`continue`); just-bash kept the status of the command before them, so
 * `for …; do ((i == 4)) && break; done` ended with 1.
 */
import type { Patch } from "./patch.ts";

/** The four loops (for-in, C-style for, while, until) catch break/continue alike. */
const loop = (status: string, caught: string, error: string, output: string, onContinue: string) => ({
  find: `${status}=${caught}.exitCode}}catch(${error}){let ${caught}=Xo(${error},${output}.stdout,${output}.stderr,e.state.loopDepth);if(${output}.replace(${caught}.stdout,${caught}.stderr),${caught}.action==="break")break;if(${caught}.action==="continue")${onContinue}`,
  replace: `${status}=${caught}.exitCode}}catch(${error}){let ${caught}=Xo(${error},${output}.stdout,${output}.stderr,e.state.loopDepth);if(${output}.replace(${caught}.stdout,${caught}.stderr),${caught}.action==="break"){${status}=0;break}if(${caught}.action==="continue"&&(${status}=0,!0))${onContinue}`,
});

export const loopControlStatus: Patch = {
  name: "loop-control-status",
  why: "A loop left by break, or ended by continue, has status 0.",
  edits: [
    loop("r", "l", "a", "n", "continue;"),
    loop("s", "a", "o", "r", "{t.update&&await Te(e,t.update.expression);continue}"),
    loop("i", "h", "p", "s", "continue;"),
    loop("i", "f", "u", "s", "continue;"),
  ],
  shows: [
    "for i in 1 2 3 4 5; do ((i == 2)) && continue; ((i == 4)) && break; echo $i; done; echo $?",
    "for ((i = 0; i < 3; i++)); do false; continue; done; echo $?; i=0; while ((i < 3)); do ((i++)); false; break; done; echo $?",
    "until false; do false; break; done; echo $?; for i in 1 2; do false; done; echo $?",
  ],
};
