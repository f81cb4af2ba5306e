/**
 * `${a[*]}` joins the elements with the first character of IFS wherever the word is not split:
 * an assignment (`IFS=,; x="${a[*]}"`), a here-string or a here-document. just-bash joined
 * with a space there (it used IFS only in arguments), so `IFS=$'\n' sorted=($(sort <<<
 * "${arr[*]}"))`, a common way to sort an array, sorted one line.
 */
import type { Patch } from "./patch.ts";

export const starJoinsWithIfs: Patch = {
  name: "star-joins-with-ifs",
  why: '"${a[*]}" joins with the first character of IFS in assignments, here-strings and here-documents too.',
  edits: [
    {
      find: 'if(a==="@"||a==="*"){let f=xe(e,o);if(f.length>0)return f.map(([,p])=>p).join(" ");',
      replace:
        'if(a==="@"||a==="*"){let f=xe(e,o);if(f.length>0)return f.map(([,p])=>p).join(a==="*"?Ne(e.state.env):" ");',
    },
  ],
  shows: [
    'arr=(a b c); IFS=, x="${arr[*]}"; echo "$x"; y=${arr[@]}; echo "$y"; cat <<< "${arr[*]}"',
    "arr=(c b a); IFS=$'\\n' sorted=($(sort <<< \"${arr[*]}\")); unset IFS; echo ${sorted[@]}",
    "a=(x y); IFS=:; cat <<EOF\n${a[*]} ${a[@]}\nEOF",
  ],
};
