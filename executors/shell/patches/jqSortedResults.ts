/**
 * jq's `unique` and `group_by` sort their results (jq defines them as sort-then-collapse), and
 * jq orders strings and object keys by code point. just-bash kept first-seen order and
 * compared strings with `localeCompare`, so `[.[] | .tag] | unique` came out in input order.
 */
import type { Patch } from "./patch.ts";

export const jqSortedResults: Patch = {
  name: "jq-sorted-results",
  why: "jq's unique and group_by sort their output, and jq orders strings by code point.",
  edits: [
    {
      find: 'case"unique":if(Array.isArray(e)){let i=new Set,o=[];for(let a of e){let l=JSON.stringify(a);i.has(l)||(i.add(l),o.push(a))}return[o]}',
      replace:
        'case"unique":if(Array.isArray(e)){let i=new Set,o=[];for(let a of e){let l=JSON.stringify(a);i.has(l)||(i.add(l),o.push(a))}return[o.sort(Wa)]}',
    },
    {
      find: "let u=new Map;for(let f of e){let d=JSON.stringify(s(f,n[0],r)[0]);u.has(d)||u.set(d,[]),u.get(d)?.push(f)}return[[...u.values()]]}",
      replace:
        "let u=new Map;for(let f of e){let d=JSON.stringify(s(f,n[0],r)[0]);u.has(d)||u.set(d,[]),u.get(d)?.push(f)}return[[...u.values()].sort((f,d)=>o(s(f[0],n[0],r)[0],s(d[0],n[0],r)[0]))]}",
    },
    {
      find: 'if(typeof e=="string"&&typeof t=="string")return e.localeCompare(t);if(typeof e=="boolean"',
      replace: 'if(typeof e=="string"&&typeof t=="string")return e<t?-1:e>t?1:0;if(typeof e=="boolean"',
    },
    {
      find: "let u=a[c].localeCompare(l[c]);if(u!==0)return u}",
      replace: "let u=a[c]<l[c]?-1:a[c]>l[c]?1:0;if(u!==0)return u}",
    },
  ],
  shows: [
    `echo '["b","a","B","b",1,null]' | jq -c unique`,
    `echo '[{"k":"y","v":1},{"k":"x","v":2},{"k":"y","v":3}]' | jq -c 'group_by(.k)'`,
    `echo '["b","a","Z","_"]' | jq -c sort`,
  ],
};
