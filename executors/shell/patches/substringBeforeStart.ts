/**
 * `${s: -N}` with N past the start of the string is empty, as in bash (`s=abc; ${s: -5}`);
 * just-bash clamped the offset to 0 and gave the whole string.
 */
import type { Patch } from "./patch.ts";

export const substringBeforeStart: Patch = {
  name: "substring-before-start",
  why: "${s: -N} with N longer than the string is empty, not the whole string.",
  edits: [
    {
      find: "let a=[...n],l=s;if(l<0&&(l=Math.max(0,a.length+l)),i!==void 0)",
      replace: "let a=[...n],l=s;if(l<0&&(l=a.length+l<0?a.length:a.length+l),i!==void 0)",
    },
  ],
  shows: ['s=abcdef; echo "[${s: -10}]" "[${s: -10:2}]" "[${s: -6}]" ${s:(-3)} "[${s:7}]"'],
};
