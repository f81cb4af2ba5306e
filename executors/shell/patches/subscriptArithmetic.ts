/**
 * `$(( ))` inside an array subscript is arithmetic expansion: `${a[$((i+2))]}`, `${#a[$((i))]}`,
 * `${m[$((n*2))]}` on an associative array. just-bash expands a subscript holding `$(` by hand
 * (its function for `$(…)`, `${…}` and `$name` there), and read `$((i+2))` as the command
 * substitution `$( (i+2) )`, whose command failed silently, leaving `${a[]}`, a bad
 * substitution. A `$((` there is now evaluated by the arithmetic evaluator, as bash does.
 */
import type { Patch } from "./patch.ts";

export const subscriptArithmetic: Patch = {
  name: "subscript-arithmetic",
  why: "$(( )) inside an array subscript is arithmetic expansion, in every form of ${a[…]}.",
  edits: [
    {
      find: "let c=n.slice(o+2,l-1);if(e.execFn){",
      replace:
        'let c=n.slice(o+2,l-1);if(n[o+2]==="("&&c.endsWith(")")){i+=String(await Te(e,Me(new be,c.slice(1,-1)).expression))}else if(e.execFn){',
    },
  ],
  shows: [
    'a=(a b c d e); i=1; echo "${a[i*2]} ${a[$((i+2))]}" ${#a[$((i))]} ${a[$((i*4))]:0:1} ${a[$(( (i+1)*2 ))]^} ${a[$((i-5))]}',
    'declare -A m=([4]=four [k2]=kay); n=2; echo "${m[$((n*2))]}" ${m[k$((n))]} ${#m[$((n+n))]}; m[$((n+1))]=three; echo ${m[3]}',
    "a=(x y z); j=0; a[$((j+1))]=Y; echo ${a[@]} ${a[ $((j)) + 2 ]} ${a[$(echo 1)]}",
  ],
};
