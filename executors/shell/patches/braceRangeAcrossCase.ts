/**
 * A letter range may cross between cases: `{X..c}` runs through the code points between
 * (X Y Z [ \ ] ^ _ ` a b c), as bash 5.2 does; just-bash refused it as an invalid sequence.
 * The backslash is an escape to bash's later quote removal, which leaves an empty quoted
 * word; here that word is dropped, so `printf '%s,' {Y..b}` lacks one empty argument (and
 * `echo` one space), while word counts agree.
 */
import type { Patch } from "./patch.ts";

export const braceRangeAcrossCase: Patch = {
  name: "brace-range-across-case",
  why: "A brace letter range may cross cases ({X..c}), running through the code points between.",
  edits: [
    { find: "if(l&&f||c&&u){let h=n!==void 0?", replace: "if(!1&&(l&&f||c&&u)){let h=n!==void 0?" },
    {
      // The backslash between Z and a is an escape to bash's later quote removal: it becomes an empty word.
      find: "if(i<=o)for(let h=i,m=0;h<=o&&m<Uo&&Ll(d,String.fromCharCode(h),r,p);h+=a,m++);else for(let h=i,m=0;h>=o&&m<Uo&&Ll(d,String.fromCharCode(h),r,p);h-=a,m++);",
      replace:
        'if(i<=o)for(let h=i,m=0;h<=o&&m<Uo&&Ll(d,h===92?"":String.fromCharCode(h),r,p);h+=a,m++);else for(let h=i,m=0;h>=o&&m<Uo&&Ll(d,h===92?"":String.fromCharCode(h),r,p);h-=a,m++);',
    },
  ],
  shows: ["echo {X..c} | wc -w; echo {b..Y..2} | wc -w; echo {X..Z} {a..c} {c..a}"],
};
