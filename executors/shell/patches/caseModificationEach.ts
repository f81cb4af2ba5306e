/**
 * `${arr[@]^}` (and `^^ , ,,`, on `[*]` too) changes the case of every element, as bash
 * applies a parameter operation to each element of an array; just-bash applied it once to
 * the elements' joined text, so only the first element's first letter changed. The result is
 * still joined as before (one word when quoted, like the rest of just-bash's `[@]`
 * operations outside the pattern ones).
 */
import type { Patch } from "./patch.ts";

export const caseModificationEach: Patch = {
  name: "case-modification-each",
  why: "${arr[@]^} changes the case of each element.",
  edits: [
    {
      find: 'case"CaseModification":{let d=await K7(e,a,s,fr,jl);',
      replace:
        'case"CaseModification":{let __m=r.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\\[([@*])\\]$/),d;if(__m){let __v=xe(e,__m[1]).map(([,x])=>x);__v.length===0&&e.state.env.get(__m[1])!==void 0&&(__v=[e.state.env.get(__m[1])]);let __o=[];for(let __x of __v)__o.push(await K7(e,__x,s,fr,jl));d=__o.join(__m[2]==="*"?(e.state.env.get("IFS")??" ").slice(0,1):" ")}else d=await K7(e,a,s,fr,jl);',
    },
  ],
  shows: [
    'a=(ab cd "ef gh"); echo "${a[@]^}"; echo ${a[*]^^}; echo "${a[@],}"',
    'declare -A m=([k]=xy); echo "${m[@]^}"',
  ],
};
