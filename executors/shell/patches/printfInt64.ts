/**
 * printf's integer conversions take 64-bit arguments as bash does (strtoimax): exact up to
 * ±9223372036854775807 (past it, clamped), `-0x10` is -16, `'c` is the character's code
 * point and a lone `'` is 0, and %u, %o, %x print a negative number's two's complement
 * (`printf %x -1` is ffffffffffffffff). just-bash parsed into doubles and used 32-bit `>>>`.
 */
import type { Patch } from "./patch.ts";

const helpers = `
// printf's number parser: bash's strtoimax (strtoumax with \`unsigned\`); it notes an invalid
// number in Yn, as just-bash's own parser did, and a clamped one in __cbRange, which
// printf-number-errors reports.
let __cbRange = false;
function __cbPrintfNum(text, unsigned = false) {
  Yn = false;
  __cbRange = false;
  const t = text.trimStart();
  if (/^\\\\?['"]/.test(t)) {
    const at = t.startsWith("\\\\") ? 2 : 1;
    return t.length > at ? BigInt(t.codePointAt(at)) : 0n;
  }
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(t);
  if (!m) {
    if (t !== "") Yn = true;
    return 0n;
  }
  if (m[0].length !== t.length) Yn = true;
  const digits = m[2];
  let v = /^0[xX]/.test(digits) ? BigInt(digits) : digits.length > 1 && digits[0] === "0" ? BigInt(\`0o\${digits.slice(1)}\`) : BigInt(digits);
  const umax = (1n << 64n) - 1n;
  if (unsigned) {
    if (v > umax) return (__cbRange = true), umax;
    return m[1] === "-" ? BigInt.asUintN(64, -v) : v;
  }
  if (m[1] === "-") v = -v;
  const max = (1n << 63n) - 1n;
  if (v > max) return (__cbRange = true), max;
  if (v < -max - 1n) return (__cbRange = true), -max - 1n;
  return v;
}
`;

export const printfInt64: Patch = {
  name: "printf-int64",
  why: "printf's %d, %i, %u, %o, %x take 64-bit arguments and print negatives as two's complement in the unsigned ones.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    { find: "function aa(e){", replace: "function aa(e){return __cbPrintfNum(e)}function __cbOld_aa(e){" },
    {
      find: "function gh(e,t){let n=e.match(",
      replace: 'function gh(e,t){e=e.replace(/[hlLqjzt]+(?=[diu]$)/,"");let n=e.match(',
    },
    { find: "o=t<0,a=Math.abs(t),l=String(a)", replace: "o=t<0,a=t<0?-BigInt(t):BigInt(t),l=String(a)" },
    { find: "let a=o<0?o>>>0:o;", replace: "let a=BigInt.asUintN(64,BigInt(o));" },
    { find: "o=Math.abs(t).toString(8)", replace: "o=BigInt.asUintN(64,BigInt(t)).toString(8)" },
    { find: "a=Math.abs(t).toString(16)", replace: "a=BigInt.asUintN(64,BigInt(t)).toString(16)" },
    { find: 's.includes("#")&&t!==0&&(l=n?"0X":"0x")', replace: 's.includes("#")&&t!=0&&(l=n?"0X":"0x")' },
  ],
  shows: [
    "printf '%d %d\\n' 9223372036854775807 -9223372036854775808",
    "printf '%u %u %x %X %o\\n' -42 $((1<<63)) -42 -1 -8",
    "printf '%d %d %d %#x %ld\\n' -0x10 010 \\'A 0 42; printf '%d\\n' \\'; echo $?",
  ],
};
