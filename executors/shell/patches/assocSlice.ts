/**
 * `${m[@]:offset:length}` on an associative array slices its values in the order
 * `${m[@]}` lists them, counting positions from 1 (an offset of 0 is the same as 1) and a
 * negative offset from one past the last (bash's assoc_subrange); just-bash refused every
 * such slice as a bad substitution, with a message naming `[@]: 0: 3` whatever was written.
 * The values are renumbered 1..n and sliced by the indexed array's code. Where a script has
 * several keys, the order of `${m[@]}` itself can still differ from bash's hash order.
 */
import type { Patch } from "./patch.ts";

const refusal = (name: string) => `throw new he(1,"",\`bash: \\\${\${${name}}[@]: 0: 3}: bad substitution\n\`);`;

export const assocSlice: Patch = {
  name: "assoc-slice",
  why: "${m[@]:offset:length} on an associative array slices its values, positions counting from 1.",
  edits: [
    {
      // ${m[@]:…} unquoted, or among other words.
      find: `if(e.state.associativeArrays?.has(c))${refusal("c")}let u=xe(e,c),f=0;`,
      replace: "let u=xe(e,c),f=0;if(e.state.associativeArrays?.has(c))u=u.map(([,d],k)=>[k+1,d]);",
    },
    {
      // "${m[@]:…}" alone in double quotes.
      find: `if(e.state.associativeArrays?.has(o))${refusal("o")}let c=l.offset?await n(e,l.offset.expression):0,u=l.length?await n(e,l.length.expression):void 0,f=xe(e,o);`,
      replace:
        "let c=l.offset?await n(e,l.offset.expression):0,u=l.length?await n(e,l.length.expression):void 0,f=xe(e,o);if(e.state.associativeArrays?.has(o))f=f.map(([,h],k)=>[k+1,h]);",
    },
  ],
  shows: [
    'declare -A m=([only]=v); echo "${m[@]:0:3}" ${m[@]:1} "[${m[*]:2}]" ${m[@]: -1}; declare -A e; echo "[${e[@]:0:2}]"',
    'declare -A k=([5]=five); k[x]=ex; n=1; for s in "${k[@]:n:1}"; do echo "<$s>"; done; echo ${k[@]:9} "${k[@]: -1:1}" "${#k[@]}"',
  ],
};
