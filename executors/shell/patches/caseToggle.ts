/**
 * `${s~}` and `${s~~}` toggle the case of the first character, or of every one (an
 * undocumented but long-standing bash operator, and `[@]` applies it to each element); just-bash
 * had no `~` operator, so either was a parse error. The toggle joins `^` and `,` as a third
 * direction of the same case modification, with its optional pattern.
 *
 * With a pattern, the single forms (`${s^[l]}`, `${s,[H]}`, `${s~[x]}`) change the first
 * character only if it matches, as bash does; just-bash changed the first matching
 * character wherever it was. And `${@^}`, `${*~}` change each positional parameter, as
 * `case-modification-each` made `${a[@]^}` change each element.
 */
import type { Patch } from "./patch.ts";

/** Swaps the case of one character (a character with no case stays as it is). */
const toggle = "f=>f===f.toUpperCase()?f.toLowerCase():f.toUpperCase()";

export const caseToggle: Patch = {
  name: "case-toggle",
  why: "${s~} and ${s~~} toggle the case of the first or of every character; a pattern in ${s^pat} tests only the first character.",
  edits: [
    {
      // The parser accepts ~ where an operator may follow the parameter's name.
      find: 'if(s<t.length&&t[s]!=="}"){let u=t[s];if(!/[:\\-+=?#%/^,@[]/.test(u))',
      replace: 'if(s<t.length&&t[s]!=="}"){let u=t[s];if(!/[:\\-+=?#%/^,@[~]/.test(u))',
    },
    {
      find: 'if(o==="^"||o===","){let l=a===o,c=o==="^"?"upper":"lower";',
      replace: 'if(o==="^"||o===","||o==="~"){let l=a===o,c=o==="^"?"upper":o===","?"lower":"toggle";',
    },
    {
      // Printing the expansion back (declare -f, set -x).
      find: 'case"CaseModification":{let n=t.direction==="upper"?"^":","',
      replace: 'case"CaseModification":{let n=t.direction==="upper"?"^":t.direction==="lower"?",":"~"',
    },
    {
      find: 'let a=ie(`^(?:${o})$`),l=n.direction==="upper"?f=>f.toUpperCase():f=>f.toLowerCase(),',
      replace: `let a=ie(\`^(?:\${o})$\`),l=n.direction==="upper"?f=>f.toUpperCase():n.direction==="lower"?f=>f.toLowerCase():${toggle},`,
    },
    {
      find: 'for(let f of t)!n.all&&u?c+=f:a.test(f)?(c+=l(f),u=!0):c+=f;return c}return n.direction==="upper"?',
      replace: `for(let f of t)!n.all&&u?c+=f:(c+=a.test(f)?l(f):f,u=!0);return c}if(n.direction==="toggle"){let l=${toggle};return n.all?[...t].map(l).join(""):[...t].map((f,i)=>i===0?l(f):f).join("")}return n.direction==="upper"?`,
    },
    {
      // The positional parameters are a list like an array's elements (case-modification-each wrote this).
      find: 'case"CaseModification":{let __m=r.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\\[([@*])\\]$/),d;if(__m){let __v=xe(e,__m[1]).map(([,x])=>x);',
      replace:
        'case"CaseModification":{let __m=r.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\\[([@*])\\]$/)||(r==="@"||r==="*"?[r,"",r]:null),d;if(__m){let __v=__m[1]===""?Array.from({length:Number(e.state.env.get("#")||0)},(_,k)=>e.state.env.get(String(k+1))??""):xe(e,__m[1]).map(([,x])=>x);',
    },
  ],
  shows: [
    's=hello; S=WORLD; m=MiXeD9; echo ${s~~} ${s~} ${S~} ${m~~} ${m~} "${s~~[lo]}" ${s~[h]} ${s~[x]} "${e~~}"',
    'a=(ab Cd "x Y"); echo ${a[@]~~} "${a[@]~}"; s=hello; echo ${s^[l]} ${s^^[l]} ${s,[H]}; S=HELLO; echo ${S,[L]} ${S,,[L]} ${S~~?}',
    'set -- aB Cd "e F"; echo ${@^} ${*,} ${@~~}; echo "${@^^}" "${*,,}"; IFS=-; echo "${*~}"; f() { echo "${@~}"; }; f xY Zw',
  ],
};
