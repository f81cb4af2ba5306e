/**
 * `wc` pads its counts as GNU wc does: to the number of digits of the files' total size
 * (every count is at most that), not at all for one count of one file, and to 7 columns
 * when reading a pipe. just-bash padded to 3 columns whenever there were several files and
 * never for standard input, so `wc -l a b` and `ls | wc` were laid out differently.
 */
import type { Patch } from "./patch.ts";

export const wcWidth: Patch = {
  name: "wc-width",
  why: "wc pads counts to the digits of the total size, or 7 on a pipe, or not at all for one count of one file.",
  edits: [
    {
      find: 'return{stdout:`${_c(y,r,s,l,"",0)}',
      replace: 'return{stdout:`${_c(y,r,s,l,"",(r?1:0)+(s?1:0)+(l?1:0)>1?7:0)}',
    },
    {
      find: "b=a.length>1?3:0;r&&(b=Math.max(b,String(h).length)),s&&(b=Math.max(b,String(m).length)),l&&(b=Math.max(b,String(g).length));",
      replace:
        "b=a.length===1&&(r?1:0)+(s?1:0)+(l?1:0)===1?0:String(c.files.reduce((z,F)=>z+F.content.length,0)).length;",
    },
  ],
  shows: [
    "seq 1000 > big; printf 'x\\n' > small; wc -l small; wc big; wc -l small big; wc small; wc -c small",
    "printf 'a b\\nc\\n' | wc; printf 'a b\\nc\\n' | wc -l; printf 'a\\n' | wc -lw",
  ],
};
