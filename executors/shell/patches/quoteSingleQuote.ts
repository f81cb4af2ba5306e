/**
 * `${s@Q}` (and the other places bash quotes a value for reuse) writes a `'` inside single
 * quotes as `'\''` (`'it'\''s'`), keeping `$'…'` for values with control characters;
 * just-bash switched to `$'it\'s'` for any value holding a quote.
 */
import type { Patch } from "./patch.ts";

export const quoteSingleQuote: Patch = {
  name: "quote-single-quote",
  why: "${s@Q} writes ' as '\\'' inside single quotes; $'…' is kept for control characters.",
  edits: [
    {
      find: 'function ts(e){if(e==="")return"\'\'";if(/[\\n\\r\\t\\x00-\\x1f\\x7f\']/.test(e)){',
      replace: 'function ts(e){if(e==="")return"\'\'";if(/[\\n\\r\\t\\x00-\\x1f\\x7f]/.test(e)){',
    },
    {
      find: "return`${n}'`}return`'${e}'`}",
      replace: "return`${n}'`}return`'${e.replace(/'/g,\"'\\\\''\")}'`}",
    },
  ],
  shows: [
    `s="it's"; echo \${s@Q}; t="a b"; echo \${t@Q}; u=$'x\\ty'; echo \${u@Q}; v=""; echo \${v@Q}; a=(x "y z" "q'q"); echo \${a[@]@Q}`,
  ],
};
