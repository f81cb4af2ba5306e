/**
 * `$'…'` escapes as bash reads them: `\u` takes one to four hex digits and `\U` one to eight
 * (`$'\U0001F600'` is 😀; just-bash knew no `\U` and wanted exactly four digits after `\u`),
 * `\x` one or two hex digits (just-bash swallowed a non-hex second character: `$'\x4g'`), and
 * the string ends at a NUL byte (`$'a\0b'` is `a`), as bash's C strings do.
 */
import type { Patch } from "./patch.ts";

export const ansiCQuoting: Patch = {
  name: "ansi-c-quoting",
  why: "$'…' takes \\u with 1-4 and \\U with 1-8 hex digits, \\x with 1-2, and ends at a NUL byte.",
  edits: [
    {
      find: "let c=t.slice(l+2,l+4),u=parseInt(c,16);if(!Number.isNaN(u)&&c.length>0)a.push(u),l+=2+c.length;else break}a.length>0?(r+=a.map(__cbByte)",
      replace:
        'let c=(/^[0-9a-fA-F]{1,2}/.exec(t.slice(l+2,l+4))??[""])[0],u=parseInt(c,16);if(!Number.isNaN(u)&&c.length>0)a.push(u),l+=2+c.length;else break}a.length>0?(r+=a.map(__cbByte)',
    },
    {
      find: 'case"u":{let a=t.slice(s+2,s+6),l=parseInt(a,16);Number.isNaN(l)?(r+="\\\\u",s+=2):(r+=String.fromCharCode(l),s+=6);break}',
      replace:
        'case"u":case"U":{let m=(t[s+1]==="u"?/^[0-9a-fA-F]{1,4}/:/^[0-9a-fA-F]{1,8}/).exec(t.slice(s+2)),l=m?parseInt(m[0],16):-1;l>=0&&l<=1114111&&!(l>=55296&&l<=57343)?(r+=String.fromCodePoint(l),s+=2+m[0].length):(r+=`\\\\${t[s+1]}`,s+=2);break}',
    },
    {
      find: "{part:Y.literal(__cbNorm(r)),endIndex:s}}function Vf(",
      replace: '{part:Y.literal(__cbNorm(r.split("\\0")[0])),endIndex:s}}function Vf(',
    },
  ],
  shows: [
    "printf '%s\\n' $'\\U0001F600' $'\\u00e9' $'\\u41z' $'\\x4g' | od -c",
    "x=$'a\\0b'; echo ${#x} \"$x\"; y=$'p\\x00q'; echo ${#y}",
  ],
};
