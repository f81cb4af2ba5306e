/**
 * `set -e` does not apply to a command run on the left of `&&` or `||`, nor anywhere inside
 * it: `f || echo failed` runs all of `f` even when a command in it fails (bash ignores
 * errexit in that whole context). just-bash exempted only the left command's own status, so
 * a function called there stopped at its first failing command. The left side now runs as
 * a condition, the way `if` runs its test.
 */
import type { Patch } from "./patch.ts";

export const errexitAndOrLeft: Patch = {
  name: "errexit-and-or-left",
  why: "set -e is ignored inside a command on the left of && or ||, functions included.",
  edits: [
    {
      find: 'if(u==="&&"&&r!==0||u==="||"&&r===0)continue;let f=await this.executePipeline(c);',
      replace:
        'if(u==="&&"&&r!==0||u==="||"&&r===0)continue;let __cbWas=this.ctx.state.inCondition;l<t.pipelines.length-1&&(this.ctx.state.inCondition=!0);let f;try{f=await this.executePipeline(c)}finally{this.ctx.state.inCondition=__cbWas}',
    },
  ],
  shows: [
    "set -e; f() { false; echo inside; }; f || echo failed; echo end",
    "set -e; g() { false; echo in-g; }; g && echo ok; echo after; false; echo never",
  ],
};
