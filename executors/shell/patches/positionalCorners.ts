/**
 * Two corners of the positional parameters: `${#@}` and `${#*}` are their count (just-bash
 * measured the joined string, so `set -- a b c; echo ${#@}` said 5), and `shift` past the
 * end fails quietly with status 1, as with bash's default `shift_verbose` off (just-bash
 * printed "shift count out of range"; it accepts `shopt -s shift_verbose` but ignores it).
 */
import type { Patch } from "./patch.ts";

export const positionalCorners: Patch = {
  name: "positional-corners",
  why: "${#@} is the number of positional parameters, and shift past the end fails quietly.",
  edits: [
    {
      find: 'function q7(e,t,n){e.coverage?.hit("bash:expansion:length");',
      replace:
        'function q7(e,t,n){e.coverage?.hit("bash:expansion:length");if(t==="@"||t==="*")return e.state.env.get("#")||"0";',
    },
    {
      find: 'count out of range\n`;if(e.state.options.posix)throw new dn(1,"",o);return K(o)}',
      replace: 'count out of range\n`;if(e.state.options.posix)throw new dn(1,"",o);return Q("","",1)}',
    },
  ],
  shows: ['set -- a b "c d"; echo ${#@} ${#*}; shift 5; echo "rc $?" $#'],
};
