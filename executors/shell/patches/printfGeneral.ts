/**
 * printf's `%g` drops trailing zeros after a decimal point only: `printf %g 100000` is
 * 100000. just-bash stripped the zeros of whole numbers too and printed 1.
 */
import type { Patch } from "./patch.ts";

export const printfGeneral: Patch = {
  name: "printf-general",
  why: "printf %g strips trailing zeros only after a decimal point (100000 stays 100000).",
  edits: [
    {
      find: 'l==="g"?(a=n.toPrecision(o||1),s.includes("#")||(a=a.replace(/\\.?0+$/,""),',
      replace:
        'l==="g"?(a=n.toPrecision(o||1),s.includes("#")||(a.includes(".")&&!a.includes("e")&&(a=a.replace(/\\.?0+$/,"")),',
    },
  ],
  shows: ["printf '%g %g %g %g %g\\n' 100000 1000000 0.0001 2.50 120"],
};
