/**
 * `awk -v OFS=';'` (and ORS, OFMT, SUBSEP) sets awk's own variable, so `$1=$1; print` joins
 * the fields with it; just-bash kept a `-v` value apart from the special variables, and the
 * separator stayed a space.
 */
import type { Patch } from "./patch.ts";

export const awkSpecialVariables: Patch = {
  name: "awk-special-variables",
  why: "awk -v OFS=… (ORS, OFMT, SUBSEP) sets the special variable itself.",
  edits: [
    {
      find: "p.FS=s,p.vars=Object.assign(Object.create(null),i),",
      replace:
        'p.FS=s,p.vars=Object.assign(Object.create(null),i),["OFS","ORS","OFMT","SUBSEP"].forEach(k=>{k in i&&(p[k]=i[k],delete p.vars[k])}),',
    },
  ],
  shows: [
    "printf 'a,b,c\\n1,2,3\\n' | awk -F, -v OFS=';' '{$1=$1; print}'; echo 'a b' | awk -v ORS='|' '{print $1}'; echo; echo 'x y' | awk -v OFS=- '{print $1, $2}'",
  ],
};
