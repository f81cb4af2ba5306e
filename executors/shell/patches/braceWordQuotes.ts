/**
 * A word that starts with a brace expansion may go on with quoted text holding blanks:
 * `echo {a,b}" "c` is `a c b c`, and `{a,b}\ x` is `a x b x`. just-bash's lexer read such a
 * word up to the first blank, quotes or not, so the closing quote was left over and the whole
 * script failed to parse ("unexpected EOF while looking for matching `\"'"). Quoted text and
 * an escaped character are now read whole, as the lexer's plain word reader does.
 */
import type { Patch } from "./patch.ts";

export const braceWordQuotes: Patch = {
  name: "brace-word-quotes",
  why: 'A word that starts with a brace expansion goes on through quoted blanks: {a,b}" "c is `a c b c`.',
  edits: [
    {
      find: 'continue}if(c==="`"){for(o++,a++;o<i&&s[o]!=="`";)',
      replace:
        'continue}if(c==="\\\\"&&o+1<i){o+=2,a+=2;continue}if(c==="\'"){for(o++,a++;o<i&&s[o]!=="\'";)o++,a++;o<i&&(o++,a++);continue}if(c===\'"\'){for(o++,a++;o<i&&s[o]!==\'"\';)s[o]==="\\\\"&&o+1<i?(o+=2,a+=2):(o++,a++);o<i&&(o++,a++);continue}if(c==="`"){for(o++,a++;o<i&&s[o]!=="`";)',
    },
  ],
  shows: [
    `f() { echo "$#:$*"; }; f {a,b}" "c; echo {a,b}'x y' {1,2}\\ z`,
    `for f in {src,test}"/my file"; do echo "[$f]"; done`,
  ],
};
