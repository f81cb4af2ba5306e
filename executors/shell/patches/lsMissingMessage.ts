/**
 * `ls` on a name that does not exist says GNU's `ls: cannot access 'x': No such file or
 * directory`; just-bash said `ls: x: No such file or directory`.
 */
import type { Patch } from "./patch.ts";

export const lsMissingMessage: Patch = {
  name: "ls-missing-message",
  why: "ls reports a missing operand with GNU's 'cannot access' message.",
  edits: [
    {
      find: 'return{stdout:"",stderr:`ls: ${e}: No such file or directory\n`,exitCode:2}}}var N8',
      replace: "return{stdout:\"\",stderr:`ls: cannot access '${e}': No such file or directory\\n`,exitCode:2}}}var N8",
    },
  ],
  shows: ["ls nope; echo $?", "ls nope/x 2>&1"],
};
