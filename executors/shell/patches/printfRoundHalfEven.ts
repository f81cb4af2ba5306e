/**
 * printf's `%f` and `%e` (the shell's and awk's) round a value that lies exactly halfway to
 * the even digit, as C's printf does with the exact binary value: `printf %.0f 2.5` is 2,
 * `%.3e` of 12345 is 1.234e+04. JavaScript's toFixed/toExponential round such ties up, so
 * just-bash printed 3 and 1.235e+04. Values that are not exact ties (2.675 is really
 * 2.67499…) already rounded as C does.
 */
import type { Patch } from "./patch.ts";

const helpers = `
// The tie test reads 40 more digits than asked for: a double that is not an exact tie
// differs from one within far fewer digits than that.
function __cbRoundHalfEven(x, digits, format) {
  if (!Number.isFinite(x)) return format(x, digits);
  const extra = 40;
  const wide = format(Math.abs(x), Math.min(100, digits + extra));
  const [mantissa, exponent] = wide.split("e");
  const tail = mantissa.slice(mantissa.length - extra);
  if (digits + extra > 100 || tail !== "5" + "0".repeat(extra - 1)) return format(x, digits);
  let kept = mantissa.slice(0, mantissa.length - extra).replace(/\\.$/, "");
  const last = kept.replace(".", "").slice(-1);
  if (Number(last) % 2 === 1) return format(x, digits);
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  return sign + kept + (exponent === undefined ? "" : "e" + exponent);
}
function __cbToFixed(x, digits) {
  return __cbRoundHalfEven(x, digits, (v, d) => v.toFixed(d));
}
function __cbToExponential(x, digits) {
  return __cbRoundHalfEven(x, digits, (v, d) => v.toExponential(d));
}
`;

export const printfRoundHalfEven: Patch = {
  name: "printf-round-half-even",
  why: "printf %f and %e round exact halfway values to even, as C does (printf %.0f 2.5 is 2).",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'if(l==="e"?(a=n.toExponential(o),a=a.replace(',
      replace: 'if(l==="e"?(a=__cbToExponential(n,o),a=a.replace(',
    },
    { find: 'l==="f"?(a=n.toFixed(o),s.includes("#")', replace: 'l==="f"?(a=__cbToFixed(n,o),s.includes("#")' },
    {
      find: 'throw new C("printf floating-point precision limit exceeded (100 digits)","string_length");let S=y.toFixed(x);',
      replace:
        'throw new C("printf floating-point precision limit exceeded (100 digits)","string_length");let S=__cbToFixed(y,x);',
    },
    {
      find: 'throw new C("printf floating-point precision limit exceeded (100 digits)","string_length");let S=y.toExponential(x);',
      replace:
        'throw new C("printf floating-point precision limit exceeded (100 digits)","string_length");let S=__cbToExponential(y,x);',
    },
  ],
  shows: [
    "printf '%.0f %.0f %.0f %.0f %.2f %.1f %.0f\\n' 2.5 3.5 0.5 -2.5 2.675 0.25 1.5",
    "printf '%.3e %.0e %.1e\\n' 12345 2.5 -0.125",
    "awk 'BEGIN { printf \"%.0f %.0f %.2f %.3e\\n\", 2.5, 3.5, 1.005, 12345 }'",
  ],
};
