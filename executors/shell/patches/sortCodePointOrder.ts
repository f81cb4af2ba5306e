/**
 * sort orders lines by code point, as GNU sort does in the C.UTF-8 locale Cubicle's shell
 * presents (`Apple` before `apple`, `README.md` before `app.js`), and `-f` folds to upper
 * case (so `_` sorts after letters). just-bash used the natural-language order of
 * `localeCompare`.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbCodePointCompare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
`;

export const sortCodePointOrder: Patch = {
  name: "sort-code-point-order",
  why: "sort compares by code point, as in the C.UTF-8 locale, and -f folds to upper case.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: "n.ignoreCase&&(r=r.toLowerCase(),s=s.toLowerCase()),n.monthSort",
      replace: "n.ignoreCase&&(r=r.toUpperCase(),s=s.toUpperCase()),n.monthSort",
    },
    { find: "return r.localeCompare(s)}function Ym(", replace: "return __cbCodePointCompare(r,s)}function Ym(" },
    {
      find: "if(!f){let w=d.localeCompare(p);return i?-w:w}",
      replace: "if(!f){let w=__cbCodePointCompare(d,p);return i?-w:w}",
    },
    {
      find: "if(!f){let g=d.localeCompare(p);return i?-g:g}",
      replace: "if(!f){let g=__cbCodePointCompare(d,p);return i?-g:g}",
    },
  ],
  shows: [
    "printf 'banana\\nApple\\ncherry\\napple\\nREADME.md\\n' | sort",
    "printf 'B\\na\\n_\\nb\\n' | sort -f",
    "printf 'b 1\\nB 1\\na 1\\n' | sort -k2,2n",
  ],
};
