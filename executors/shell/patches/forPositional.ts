/**
 * `for arg; do` (no `in`) loops over the positional parameters one by one, as `"$@"` does;
 * just-bash split `$@`'s joined text on spaces, so an argument holding a space became two.
 */
import type { Patch } from "./patch.ts";

export const forPositional: Patch = {
  name: "for-positional",
  why: 'for arg; do iterates over the positional parameters as "$@" does, never splitting one.',
  edits: [
    {
      find: 'if(t.words===null)i=(e.state.env.get("@")||"").split(" ").filter(Boolean);',
      replace:
        'if(t.words===null)for(let o=1,a=Number(e.state.env.get("#")||0);o<=a;o++)i.push(e.state.env.get(String(o))??"");',
    },
  ],
  shows: [
    'set -- a "b c" "" d; for x; do echo "[$x]"; done',
    'f() { for arg; do echo "<$arg>"; done; }; f one "two three" 3 4 5 6 7 8 9 "ten 10"',
  ],
};
