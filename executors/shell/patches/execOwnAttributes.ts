/**
 * `bash -c` runs a new shell: a variable it makes readonly, associative or integer is gone
 * when it ends. just-bash gives each run (a nested `bash -c`, and each exec) fresh copies of
 * the variables and functions but the very same sets of attributes, so after
 * `bash -c 'readonly x=1'` the calling shell refused `x=2` ("x: readonly variable"), and a
 * name once declared `-A` stayed associative in every later run. Each run now starts from
 * copies of those sets, as it does of the variables.
 */
import type { Patch } from "./patch.ts";

const copied = ["readonlyVars", "associativeArrays", "integerVars", "lowercaseVars", "uppercaseVars", "namerefs"]
  .map((set) => `${set}:this.state.${set}&&new Set(this.state.${set}),`)
  .join("");

export const execOwnAttributes: Patch = {
  name: "exec-own-attributes",
  why: "A variable made readonly, associative or integer inside bash -c keeps that attribute only there.",
  edits: [{ find: "let m={...this.state,env:h,", replace: `let m={...this.state,${copied}env:h,` }],
  shows: [
    "bash -c 'readonly x=1; x=2'; x=3; echo \"x=$x\"; bash -c 'declare -rA m=([a]=1)'; declare -A m=([k]=v); echo ${m[k]}",
    "bash -c 'declare -i n; n=2+3; echo $n; declare -u u=up; echo $u'; n=2+3; u=low; echo $n $u; sh -c 'readonly r=1'; r=2 && echo r=$r",
  ],
};
