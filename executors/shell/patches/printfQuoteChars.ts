/**
 * `printf %q` backslash-escapes the characters bash's quoting does and no others: `=`, `%`,
 * `+`, `:` and `@` stay as they are (`printf %q a=b` is `a=b`, a common way to print a
 * command line), `,`, `]` and `^` get a backslash, `#` only first in the word and `~` only
 * first or after `=` or `:`. just-bash escaped `=`, `%` and every `#` and `~`.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbQuoteWord(e) {
  const chars = [...e];
  let s = "";
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k];
    const esc = " \\t\\n'\\"\\\\|&;()<>!{}*[?]^$\`,".includes(c) || (c === "#" && k === 0) || (c === "~" && (k === 0 || chars[k - 1] === "=" || chars[k - 1] === ":"));
    s += esc ? \`\\\\\${c}\` : c;
  }
  return s;
}
`;

export const printfQuoteChars: Patch = {
  name: "printf-quote-chars",
  why: "printf %q escapes bash's set of characters: not = % + : @, but , ] ^, # only first and ~ only first or after = or :.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    { find: ":s+=i;return s}function E8(e,t,n){", replace: ":s+=i;return __cbQuoteWord(e)}function E8(e,t,n){" },
  ],
  shows: ["printf '%q\\n' 'safe-_./:@%+=' 'a,b' 'x]^' '#a' 'a#' '~' 'a~' 'a=~' 'k:~' 'a b' \"it's\" 'x$y' '{}!'"],
};
