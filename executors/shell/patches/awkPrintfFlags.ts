/**
 * awk's printf applies the `0`, `+` and space flags to `%f` and `%e` (`%05.1f` of 3.14159
 * is 003.1) and writes at least two exponent digits (1.234e+04), as the shell's printf and
 * C do; just-bash's awk padded floats with spaces only, ignored the sign flags, and wrote
 * `e+4`.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbAwkFloat(text, flags, width) {
  text = text.replace(/e([+-])(\\d)$/, "e$10$2");
  let sign = "";
  if (text.startsWith("-")) { sign = "-"; text = text.slice(1); }
  else if (flags.includes("+")) sign = "+";
  else if (flags.includes(" ")) sign = " ";
  const size = width ? parseInt(width, 10) : 0;
  if (flags.includes("-")) return (sign + text).padEnd(size);
  if (flags.includes("0") && /^[0-9]/.test(text)) return sign + text.padStart(size - sign.length, "0");
  return (sign + text).padStart(size);
}
`;

export const awkPrintfFlags: Patch = {
  name: "awk-printf-flags",
  why: "awk's printf %f/%e take the 0, + and space flags and write two exponent digits.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'let S=__cbToFixed(y,x);if(f){let E=parseInt(f,10);u.includes("-")?S=S.padEnd(E):S=S.padStart(E)}',
      replace: "let S=__cbAwkFloat(__cbToFixed(y,x),u,f);",
    },
    {
      find: 'let S=__cbToExponential(y,x);if(g==="E"&&(S=S.toUpperCase()),f){let E=parseInt(f,10);u.includes("-")?S=S.padEnd(E):S=S.padStart(E)}',
      replace: 'let S=__cbAwkFloat(__cbToExponential(y,x),u,f);g==="E"&&(S=S.toUpperCase());',
    },
  ],
  shows: [
    `awk 'BEGIN { printf "%05.1f|%-6.2f|%+.1f|% .2f|%08.3e|%E|%7.2f|\\n", 3.14159, 2.5, 3, 1, 12345, 0.5, -1.5 }'`,
    `awk 'BEGIN { s = sprintf("%05.1f|%-4s|%x", 3.14159, "ab", 255); print s }'`,
  ],
};
