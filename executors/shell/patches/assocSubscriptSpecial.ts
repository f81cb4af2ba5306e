/**
 * An associative array's subscript expands positional and special parameters (`${m[$1]}`,
 * `${m[$#]}`), as any other word does; just-bash's subscript expander knew only `$name`,
 * `${…}` and `$(…)`, so `${deps[$1]}` in a function looked up the literal key `$1`.
 */
import type { Patch } from "./patch.ts";

export const assocSubscriptSpecial: Patch = {
  name: "assoc-subscript-special",
  why: "An associative array subscript expands $1, $#, $? and the other special parameters.",
  edits: [
    {
      find: "let l=n.slice(o+1,a),c=await We(e,l);i+=c,o=a}else i+=n[o],o++;",
      replace:
        'let l=n.slice(o+1,a),c=await We(e,l);i+=c,o=a}else if(/[0-9#?$!@*-]/.test(n[o+1]||"")){i+=await We(e,n[o+1]),o+=2}else i+=n[o],o++;',
    },
  ],
  shows: [
    'declare -A d=([app]="lib cfg" [2]=two); f() { echo "[${d[$1]}] [${d[$#]}]"; d[$1]=new; }; f app x; echo "${d[app]}"',
  ],
};
