/**
 * grep as GNU grep reads its patterns and options:
 * - `\+` and `\?` in a basic regular expression repeat, as GNU's extensions do
 *   (`grep -o '[0-9]\+'`); just-bash matched a literal + or ?;
 * - every `-e PATTERN` counts (`grep -e a -e b`); just-bash kept the last;
 * - `-H` (`--with-filename`) prefixes each line with its file, `(standard input)` for stdin.
 */
import type { Patch } from "./patch.ts";

export const grepOptions: Patch = {
  name: "grep-options",
  why: "grep's basic regexps take \\+ and \\?, every -e pattern counts, and -H prints file names.",
  edits: [
    {
      find: 'if(o==="}"){t+="\\\\}",n+=2,r=!1;continue}t+=i+o,n+=2,r=!1;continue}',
      replace:
        'if(o==="}"){t+="\\\\}",n+=2,r=!1;continue}if(o==="+"||o==="?"){t+=o,n+=2,r=!1;continue}t+=i+o,n+=2,r=!1;continue}',
    },
    {
      find: 'if(fe==="-e"&&se+1<e.length){A=e[++se];continue}',
      replace: 'if(fe==="-e"&&se+1<e.length){A=A===null?e[++se]:`${A}\n${e[++se]}`;continue}',
    },
    {
      find: 'else if(pe==="h"||pe==="--no-filename")m=!0;',
      replace: 'else if(pe==="h"||pe==="--no-filename")m=!0;else if(pe==="H"||pe==="--with-filename")m="H";',
    },
    { find: "let ge=(ee.length>1||l&&Ie)&&!m,", replace: 'let ge=m==="H"||(ee.length>1||l&&Ie)&&!m,' },
    {
      find: 'fe=Es(se,U,{invertMatch:s,showLineNumbers:r,countOnly:i,filename:"",',
      replace: 'fe=Es(se,U,{invertMatch:s,showLineNumbers:r,countOnly:i,filename:m==="H"?"(standard input)":"",',
    },
  ],
  shows: [
    "grep -o '[0-9]\\+' <<< 'a12b345'; grep -c 'ab\\?c' <<< $'ac\\nabc\\nabbc'; grep 'a+' <<< $'a+\\naa'",
    "grep -e a -e b <<< $'a\\nb\\nc'; printf 'k=v\\n' > cfg; grep -H v cfg; grep -H v <<< v; grep -Hn k cfg",
  ],
};
