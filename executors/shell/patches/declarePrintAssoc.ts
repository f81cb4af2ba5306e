/**
 * `declare -p` prints an associative array as bash does: `declare -A m=([k]="v w" )`, each
 * value double-quoted, a key quoted only when it needs it, and a space before the `)`.
 * just-bash single-quoted keys and values (`(['k']='v w')`). bash lists keys in its hash
 * table's order, which no script should rely on; just-bash keeps insertion order.
 */
import type { Patch } from "./patch.ts";

/** The three places that print an associative array: `declare -p name`, `declare -p`, `declare -A`. */
const closing = (target: string, name: string, list: string) => ({
  find: `${target}+=\`declare -A \${${name}}=(\${${list}.join(" ")})`,
  replace: `${target}+=\`declare -A \${${name}}=(\${${list}.join(" ")} )`,
});

export const declarePrintAssoc: Patch = {
  name: "declare-print-assoc",
  why: 'declare -p prints associative arrays as ([k]="v" ), values double-quoted.',
  edits: [
    {
      find: "function sp(e){return Tt(e)}function ip(e){return`'${e.replace(/'/g,\"'\\\\''\")}'`}",
      replace: "function sp(e){return ds(e)}function ip(e){return/^[A-Za-z0-9_.@%+,:\\/-]+$/.test(e)?e:ds(e)}",
    },
    closing("n", "i", "f"),
    closing("l", "f", "w"),
    closing("t", "r", "i"),
  ],
  shows: [
    "declare -A m=([k]='v w'); declare -p m",
    'declare -A q=(["a b"]=1); declare -p q; declare -A e=(); declare -p e',
  ],
};
