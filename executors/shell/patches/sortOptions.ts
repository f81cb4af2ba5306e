/**
 * sort accepts `-C` (check order quietly, only the status tells) and `-z` (lines end in
 * NUL, as `find -print0 | sort -z | xargs -0` needs); just-bash refused both.
 */
import type { Patch } from "./patch.ts";

export const sortOptions: Patch = {
  name: "sort-options",
  why: "sort takes -C (check quietly) and -z (NUL-terminated lines).",
  edits: [
    {
      find: 'else if(d==="c")n.checkOnly=!0;else{f=!0;break}',
      replace:
        'else if(d==="c")n.checkOnly=!0;else if(d==="C")n.checkOnly=n.checkQuiet=!0;else if(d==="z")n.zeroTerminated=!0;else{f=!0;break}',
    },
    {
      find: 'let o=ue(s.content).split(`\n`);o.length>0&&o[o.length-1]===""&&o.pop();',
      replace: 'let o=ue(s.content).split(n.zeroTerminated?"\\0":`\n`);o.length>0&&o[o.length-1]===""&&o.pop();',
    },
    {
      find: 'return{stdout:"",stderr:`sort: ${c}:${u+1}: disorder',
      replace: 'return{stdout:"",stderr:n.checkQuiet?"":`sort: ${c}:${u+1}: disorder',
    },
    {
      find: 'let l=o.length>0?`${o.join(`\n`)}\n`:"";',
      replace: 'let l=o.length>0?(n.zeroTerminated?`${o.join("\\0")}\\0`:`${o.join(`\n`)}\n`):"";',
    },
  ],
  shows: [
    "printf 'b\\na\\n' | sort -C; echo $?; printf 'a\\nb\\n' | sort -C; echo $?",
    "printf 'b\\0a\\0' | sort -z | xargs -0 printf '<%s>'",
  ],
};
