/**
 * printf's floating conversions as C's: `%g` picks the exponent form by C's rule (exponent
 * below -4 or not below the precision) with at least two exponent digits, so `printf %g
 * 1e-5` is 1e-05 and 0.000012345 is 1.2345e-05 (just-bash used JavaScript's toPrecision,
 * which writes 0.00001); `inf`, `infinity` and `nan` arguments print as inf and nan (just-bash
 * read them as 0).
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbG(n, P, alt) {
  const p = P === 0 ? 1 : P;
  const m = __cbToExponential(n, p - 1);
  const x = Number(m.slice(m.indexOf("e") + 1));
  if (x < p && x >= -4) {
    const s = __cbToFixed(n, p - 1 - x);
    return !alt && s.includes(".") ? s.replace(/\\.?0+$/, "") : s;
  }
  let [mant, ex] = m.split("e");
  if (!alt && mant.includes(".")) mant = mant.replace(/\\.?0+$/, "");
  return \`\${mant}e\${ex.startsWith("-") ? "-" : "+"}\${ex.replace(/^[+-]/, "").padStart(2, "0")}\`;
}
function __cbFloatArg(text) {
  const t = text.trim();
  if (/^[+-]?inf(inity)?$/i.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return Number.NaN;
  return parseFloat(text) || 0;
}
function __cbNonFinite(spec, conv, n) {
  const r = /^%([- +#0']*)(\\d*)/.exec(spec) ?? ["", "", ""];
  let a = Number.isNaN(n) ? "nan" : "inf";
  if (conv === conv.toUpperCase()) a = a.toUpperCase();
  if (n < 0) a = \`-\${a}\`;
  else if (r[1].includes("+")) a = \`+\${a}\`;
  else if (r[1].includes(" ")) a = \` \${a}\`;
  const w = r[2] ? Number(r[2]) : 0;
  return r[1].includes("-") ? a.padEnd(w, " ") : a.padStart(w, " ");
}
`;

export const printfFloatForms: Patch = {
  name: "printf-float-forms",
  why: "printf %g chooses C's form with two exponent digits (1e-05), and inf/nan arguments print as inf/nan.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'l==="g"?(a=n.toPrecision(o||1),s.includes("#")||(a.includes(".")&&!a.includes("e")&&(a=a.replace(/\\.?0+$/,"")),a=a.replace(/\\.?0+e/,"e")),a=a.replace(/e([+-])(\\d)$/,"e$10$2"),t==="G"&&(a=a.toUpperCase()))',
      replace: 'l==="g"?(a=__cbG(n,o,s.includes("#")),t==="G"&&(a=a.toUpperCase()))',
    },
    { find: 'case"G":{let o=parseFloat(n)||0;', replace: 'case"G":{let o=__cbFloatArg(n);' },
    { find: "function A8(e,t,n){", replace: "function A8(e,t,n){if(!Number.isFinite(n))return __cbNonFinite(e,t,n);" },
  ],
  shows: [
    "printf '%g %g %g %g %g %g %g\\n' 1e-5 0.0001 123456789 1234567 0.000012345 1e100 100000",
    "printf '%G %.3g %#g %10.2g| %-8g| %g\\n' 1e-10 3.14159 1 0.000123 2.5 0",
    "printf '%f %e %g %F|%6.2f|%-5g|\\n' inf -inf nan INF infinity -Inf",
  ],
};
