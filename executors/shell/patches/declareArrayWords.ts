/**
 * In `local -a v=("$@")`, `declare -a v=($list)` and the like, an element's expansion
 * (a double-quoted part, a parameter or a command substitution) makes as many elements as
 * it has words: `"$@"` and `"${a[@]}"` one per item, an unquoted
 * `$x` one per field. just-bash expanded each part of such an assignment to one string, so
 * `local -a v=("$@")` had one element holding every argument. An expansion with no words
 * (`"$@"` without arguments) makes no element.
 */
import type { Patch } from "./patch.ts";

export const declareArrayWords: Patch = {
  name: "declare-array-words",
  why: 'local -a v=("$@") makes one element per argument, and an unquoted $x one per field.',
  edits: [
    {
      find: 'p=!1;let E=await _e(e,{type:"Word",parts:[S]});h(E)}(c||d)&&g();',
      replace:
        'p=!1;let E=S.type==="DoubleQuoted"||S.type==="ParameterExpansion"||S.type==="CommandSubstitution"?await dr(e,{type:"Word",parts:[S]}):{values:[await _e(e,{type:"Word",parts:[S]})]};E.values.length===0&&!c&&(d=!1);for(let[R,N]of E.values.entries())R>0&&(g(),d=!0,p=!1),h(N)}(c||d)&&g();',
    },
  ],
  shows: [
    'f() { local -a v=("$@"); echo "${#v[@]} [${v[1]}]"; }; f a "b c" d',
    'x="1 2"; declare -a a=(pre$x "q r" "${a[@]}"); echo "${#a[@]} ${a[0]} ${a[1]} [${a[2]}]"',
    'b=(x "y z"); declare -a c=("${b[@]}" end); echo "${#c[@]} [${c[1]}]"',
  ],
};
