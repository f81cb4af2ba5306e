/**
 * xargs takes its option values attached (`-I{}`, `-n1`, `-P4`, the forms agents write
 * most), and with empty input runs the command once, as GNU xargs does unless `-r` is given
 * (with `-I` it runs nothing). just-bash refused the attached forms as unknown options and
 * ran nothing on empty input.
 */
import type { Patch } from "./patch.ts";

export const xargsOptions: Patch = {
  name: "xargs-options",
  why: "xargs takes -I{}, -n1 and -P4 attached, and runs the command once on empty input unless -r or -I.",
  edits: [
    {
      find: 'for(let T=0;T<e.length;T++){let W=e[T];if(W==="-I"&&T+1<e.length)n=e[++T],c=T+1;',
      replace:
        'for(let T=0;T<e.length;T++){let W=e[T];if(/^-[InP]./.test(W)&&c===T){e=[...e.slice(0,T),W.slice(0,2),W.slice(2),...e.slice(T+1)];W=e[T]}if(W==="-I"&&T+1<e.length)n=e[++T],c=T+1;',
    },
    {
      find: 'if(g.length===0)return l?{stdout:"",stderr:"",exitCode:0}:{stdout:"",stderr:"",exitCode:0};',
      replace: 'if(g.length===0&&(l||n!==null))return{stdout:"",stderr:"",exitCode:0};g.length===0&&(s=null);',
    },
  ],
  shows: [
    "printf 'a\\nb\\n' | xargs -I{} echo 'item {}'",
    "printf '1 2 3\\n' | xargs -n1 echo n",
    "printf '' | xargs echo empty input runs once",
    "printf '' | xargs -r echo never; printf '' | xargs -I{} echo never {}; echo done",
  ],
};
