/**
 * `head -n -N` prints all but the last N lines, and `head -c -N` all but the last N bytes
 * (GNU); just-bash refused a negative count as invalid.
 */
import type { Patch } from "./patch.ts";

export const headNegativeCount: Patch = {
  name: "head-negative-count",
  why: "head -n -N (and -c -N) prints all but the last N lines (bytes).",
  edits: [
    {
      find: 'return r!==null&&(Number.isNaN(r)||r<0)?{ok:!1,error:{stdout:"",stderr:`${t}: invalid number of bytes\n`,exitCode:1}}:Number.isNaN(n)||n<0?',
      replace:
        'return r!==null&&(Number.isNaN(r)||r<0&&t!=="head")?{ok:!1,error:{stdout:"",stderr:`${t}: invalid number of bytes\n`,exitCode:1}}:Number.isNaN(n)||n<0&&t!=="head"?',
    },
    {
      find: "function Kh(e,t,n){if(n!==null)return e.slice(0,n);",
      replace:
        'function Kh(e,t,n){if(n!==null)return n<0?e.slice(0,Math.max(0,e.length+n)):e.slice(0,n);if(t<0){let L=e.split("\\n");e.endsWith("\\n")&&L.pop(),L=L.slice(0,Math.max(0,L.length+t));return L.length>0?`${L.join("\\n")}\\n`:""}',
    },
  ],
  shows: [
    "seq 10 | head -n -7",
    "seq 3 | head -n -5; echo $?",
    "printf 'abcdef' | head -c -2",
    "printf 'a\\nb\\nc' | head -n -1",
  ],
};
