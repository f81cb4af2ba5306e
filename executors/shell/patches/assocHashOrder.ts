/**
 * Bash lists an associative array's keys in the order of its hash table, not sorted and not
 * in the order they were made: `declare -A m=([a]=1 [b]=2 [c]=3); echo "${!m[@]}"` prints
 * `c b a`. just-bash sorted them, so `for k in "${!m[@]}"`, `${m[@]}`, `declare -p` and slices
 * printed in another order than bash for any array of more than one key.
 *
 * The order is bash 5.2's hashlib: FNV-1 over the key's bytes (32 bits, each byte a signed
 * char), 1024 buckets for an associative array, a new key at the head of its bucket, the
 * table growing 4× (walking old buckets in order, each chain from its head) when a key is
 * added to one holding twice as many as it has buckets. just-bash's elements are a Map, so
 * insertion order is known (a key set again keeps its place; one unset and set again goes
 * last, as in bash). Deleted keys never count towards growth here, so past 2,048 keys with
 * deletions the order may differ.
 */
import type { Patch } from "./patch.ts";

// Hand-written: the order is bash's hash table's, which no library reproduces.
const helpers = `function __cbKeyHash(k){let h=2166136261;for(const b of new TextEncoder().encode(k))h=(Math.imul(h,16777619)^(b>127?b|4294967040:b))>>>0;return h}
function __cbAssocOrder(keys){let nb=1024,n=0,bs=new Map(),hs=new Map();const put=k=>{let i=hs.get(k)&(nb-1),c=bs.get(i);c?c.unshift(k):bs.set(i,[k])},walk=()=>[...bs.entries()].sort((x,y)=>x[0]-y[0]).flatMap(e=>e[1]);for(const k of keys){if(n>=nb*2){const old=walk();nb*=4,bs=new Map();for(const o of old)put(o)}hs.set(k,__cbKeyHash(k)),put(k),n++}return walk()}
`;

export const assocHashOrder: Patch = {
  name: "assoc-hash-order",
  why: "An associative array's keys are listed in bash's hash-table order (FNV-1, 1024 buckets, newest first in a bucket), not sorted.",
  edits: [
    {
      find: "function Ar(e,t){return Array.from(Bt(e,t)?.elements.keys()??[]).sort()}",
      replace: `${helpers}function Ar(e,t){return __cbAssocOrder(Bt(e,t)?.elements.keys()??[])}`,
    },
  ],
  shows: [
    'declare -A m=([one]=1 [two]=2 [three]=3 [four]=4 [five]=5); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done; echo "${m[*]}"',
    'declare -A c; for w in the cat sat on the mat the end; do ((c[$w]++)); done; for k in "${!c[@]}"; do echo "$k ${c[$k]}"; done',
    "declare -A m=([a]=1 [b]=2); unset 'm[a]'; m[a]=3; m[c]=4; m[b]=5; declare -p m",
    'declare -A m=([k1]=v1 [k2]=v2 [k3]=v3 [k10]=x [apple]=y [banana]=z [été]=w); echo "${!m[@]}"; echo "${m[@]:1:2}"',
    'declare -A m; for i in $(seq 3000); do m[k$i]=$i; done; echo "${!m[@]}" | md5sum',
  ],
};
