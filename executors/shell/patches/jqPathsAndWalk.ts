/**
 * Three jq builtins as jq does them:
 * - an assignment through a missing path creates it: `.a.b = 1` on `{}` is `{"a":{"b":1}}`,
 *   `.x[2] = 1` makes `[null,null,1]` (null counts as an empty object or array, by the key);
 *   just-bash stopped at the first missing level and left `{"a":null}`;
 * - `walk(f)` applies f to every value, numbers and strings included; just-bash kept what f
 *   made of arrays and objects only, so `walk(if type == "number" then . + 1 else . end)`
 *   changed nothing;
 * - `sort_by(f)` orders by all of f's outputs (`sort_by(.a, .b)`), not the first.
 */
import type { Patch } from "./patch.ts";

const fieldBase =
  'if(c.base)return o(l,c.base,f=>{if(f&&typeof f=="object"&&!Array.isArray(f)){let d=$t(f),p=Object.hasOwn(d,c.name)?d[c.name]:void 0;return Ze(d,c.name,u(p)),d}';
const fieldTop =
  'if(l&&typeof l=="object"&&!Array.isArray(l)){let f=$t(l),d=Object.hasOwn(f,c.name)?f[c.name]:void 0;return Ze(f,c.name,u(d)),f}return l}case"Index":';
const indexBase =
  'if(typeof d=="string"&&p&&typeof p=="object"&&!Array.isArray(p)){if(!qe(d))return p;let h=$t(p),m=Object.hasOwn(h,d)?h[d]:void 0;return Ze(h,d,u(m)),h}return p});';
const indexTop =
  'if(typeof d=="string"&&l&&typeof l=="object"&&!Array.isArray(l)){if(!qe(d))return l;let p=$t(l),h=Object.hasOwn(p,d)?p[d]:void 0;return Ze(p,d,u(h)),p}return l}case"Iterate":';

const walkOld =
  'case"walk":{if(n.length===0)return[e];let l=bi(r),c=new WeakSet,u=new WeakMap,f=[{value:e,depth:0,expanded:!1}]';

export const jqPathsAndWalk: Patch = {
  name: "jq-paths-and-walk",
  why: "jq assignments create missing paths (.a.b = 1 on {}), walk(f) applies f to scalars too, and sort_by uses all of f's outputs.",
  edits: [
    { find: fieldBase, replace: `${fieldBase}if(f==null){let d=Object.create(null);return Ze(d,c.name,u(null)),d}` },
    {
      find: fieldTop,
      replace: fieldTop.replace(
        "return l}case",
        "if(l==null){let f=Object.create(null);return Ze(f,c.name,u(null)),f}return l}case",
      ),
    },
    {
      find: indexBase,
      replace: indexBase.replace(
        "return p});",
        'if(p==null){if(typeof d=="number"&&d>=0){Pt(s,0,d+1);let h=new Array(d+1).fill(null);return h[d]=u(null),h}if(typeof d=="string"&&qe(d)){let h=Object.create(null);return Ze(h,d,u(null)),h}}return p});',
      ),
    },
    {
      find: indexTop,
      replace: indexTop.replace(
        "return l}case",
        'if(typeof d=="string"&&l==null&&qe(d)){let p=Object.create(null);return Ze(p,d,u(null)),p}return l}case',
      ),
    },
    {
      // A recursive walk, bounded as before by the query's depth limit.
      find: walkOld,
      replace:
        'case"walk":{if(n.length===0)return[e];let L=bi(r),W=(v,k)=>{if(k>L.maxDepth)throw new C(`query depth limit exceeded (${L.maxDepth})`,"recursion");let g=v;if(Array.isArray(v))g=v.map(x=>W(x,k+1));else if(v!==null&&typeof v=="object"){g=Object.create(null);let y=Je(v);for(let x of Object.keys(y??{}))qe(x)&&Ze(g,x,W(y[x],k+1))}return s(g,n[0],r)[0]??null};return[W(e,0)]}case"__cbOldWalk":{if(n.length===0)return[e];let l=bi(r),c=new WeakSet,u=new WeakMap,f=[{value:e,depth:0,expanded:!1}]',
    },
    {
      find: 'case"sort_by":return!Array.isArray(e)||n.length===0?[null]:[[...e].sort((f,d)=>{let p=s(f,n[0],r)[0],h=s(d,n[0],r)[0];return o(p,h)})];',
      replace:
        'case"sort_by":return!Array.isArray(e)||n.length===0?[null]:[[...e].sort((f,d)=>{let p=s(f,n[0],r),h=s(d,n[0],r);return o(p,h)})];',
    },
  ],
  shows: [
    "jq -c '.a.b = 1' <<< '{}'; jq -c '.a.b.c = 1' <<< '{}'; jq -c '.a.b |= 5' <<< '{}'; jq -c '.x[2] = 1' <<< '{}'; jq -c '.a.b.c += 1' <<< '{}'; jq -c '.a[\"k\"] = 2' <<< '{}'",
    'jq -c \'walk(if type == "number" then . + 1 else . end)\' <<< \'[1,[2],{"a":3}]\'; jq -c \'walk(if type == "object" then del(.x) else . end)\' <<< \'{"x":1,"y":{"x":2}}\'',
    'jq -c \'sort_by(.a, .b)\' <<< \'[{"a":1,"b":2},{"a":1,"b":1},{"a":0,"b":3}]\'; jq -c \'sort_by(.n)\' <<< \'[{"n":2},{"n":1}]\'',
  ],
};
