/**
 * `declare -A m=([k]='x y')` (and `declare -a`, `local`, `typeset` with `[i]=…`) keeps the
 * whole quoted value. just-bash rebuilds such an assignment as text for declare to parse
 * again and quoted the plain elements of that text but not the keyed ones, so `[k]=x y`
 * was read back as `[k]=x` and a stray word `y`.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbKeyed(element) {
  const m = /^(\\[[^\\]]+\\]=)(.*)$/s.exec(element);
  if (!m || !/[\\s"'\\\\$\`!*?[\\]{}|&;<>()]/.test(m[2]) || /^['"]/.test(m[2])) return element;
  return \`\${m[1]}'\${m[2].replace(/'/g, "'\\\\''")}'\`;
}
`;

export const declareKeyedValues: Patch = {
  name: "declare-keyed-values",
  why: "declare with [key]='value with spaces' kept only the value's first word.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    { find: "let E=o[S],A;/^\\[.+\\]=/.test(E)?A=E:", replace: "let E=o[S],A;/^\\[.+\\]=/.test(E)?A=__cbKeyed(E):" },
  ],
  shows: [
    'declare -A m=([k]=\'x y\' [j]="p q"); echo "[${m[k]}] [${m[j]}]"',
    'declare -a a=([0]=\'x y\' [3]="it\'s"); echo "[${a[0]}] [${a[3]}]"',
  ],
};
