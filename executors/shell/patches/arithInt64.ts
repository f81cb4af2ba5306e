/**
 * Bash arithmetic is 64-bit signed with wrap-around (`$((1<<63))` is -9223372036854775808,
 * `18446744073709551615` is -1); just-bash computed in doubles and 32-bit bit operations.
 *
 * The evaluator (`Mi`) now yields BigInts wrapped to 64 bits: every number it parses, reads
 * from a variable or computes goes through `__cbI`, and the operator tables (`qN` binary,
 * `Yw` assignment, `ZN` unary) and the literal parser (`Lo`) are replaced by the int64
 * versions below; the old bodies stay in the bundle, unreachable, so each edit is a small
 * anchor. `Te`, which the rest of just-bash calls for indices, offsets and conditions, still
 * returns a Number; the places that print or compare a result (`$(( ))`, `declare -i`,
 * `[[ -eq ]]`, `test -eq`) use the exact `__cbTe64`.
 */
import type { Patch } from "./patch.ts";

/** Prepended to the bundle: the int64 helpers the edits below call. */
const helpers = `
function __cbI(v) {
  if (typeof v === "bigint") return BigInt.asIntN(64, v);
  if (typeof v === "number") return Number.isFinite(v) ? BigInt.asIntN(64, BigInt(Math.trunc(v))) : 0n;
  const m = /^\\s*([+-]?)(\\d+)/.exec(String(v ?? ""));
  return m ? BigInt.asIntN(64, BigInt(m[1] + m[2])) : 0n;
}
const __cbMin = -(1n << 63n);
function __cbPow(b, e) {
  let r = 1n;
  for (; e > 0n; e >>= 1n) {
    if (e & 1n) r = BigInt.asIntN(64, r * b);
    b = BigInt.asIntN(64, b * b);
  }
  return r;
}
function __cbBinary(a, b, op) {
  a = __cbI(a); b = __cbI(b);
  switch (op) {
    case "+": return BigInt.asIntN(64, a + b);
    case "-": return BigInt.asIntN(64, a - b);
    case "*": return BigInt.asIntN(64, a * b);
    case "/":
      if (b === 0n) throw new Ge("division by 0");
      return a === __cbMin && b === -1n ? __cbMin : a / b;
    case "%":
      if (b === 0n) throw new Ge("division by 0");
      return b === -1n ? 0n : a % b;
    case "**":
      if (b < 0n) throw new Ge("exponent less than 0");
      return __cbPow(a, b);
    // x86 shifts use the count modulo 64, which is what bash's C shifts do there.
    case "<<": return BigInt.asIntN(64, a << (b & 63n));
    case ">>": return a >> (b & 63n);
    case "<": return a < b ? 1n : 0n;
    case "<=": return a <= b ? 1n : 0n;
    case ">": return a > b ? 1n : 0n;
    case ">=": return a >= b ? 1n : 0n;
    case "==": return a === b ? 1n : 0n;
    case "!=": return a !== b ? 1n : 0n;
    case "&": return a & b;
    case "|": return a | b;
    case "^": return a ^ b;
    case ",": return b;
    default: return 0n;
  }
}
function __cbAssign(a, b, op) {
  return op === "=" ? __cbI(b) : __cbBinary(a, b, op.slice(0, -1));
}
function __cbUnary(a, op) {
  a = __cbI(a);
  switch (op) {
    case "-": return BigInt.asIntN(64, -a);
    case "!": return a === 0n ? 1n : 0n;
    case "~": return ~a;
    default: return a;
  }
}
function __cbLo(s) {
  if (s.includes("#")) {
    const parts = s.split("#");
    if (parts.length !== 2) return Number.NaN;
    const [b, d] = parts;
    if (!/^\\d+$/.test(b) || d.length === 0) return Number.NaN;
    const base = Number.parseInt(b, 10);
    if (base < 2 || base > 64) return Number.NaN;
    let v = 0n;
    for (const ch of d) {
      let x;
      if (/[0-9]/.test(ch)) x = ch.charCodeAt(0) - 48;
      else if (/[a-z]/.test(ch)) x = ch.charCodeAt(0) - 97 + 10;
      else if (/[A-Z]/.test(ch)) x = ch.charCodeAt(0) - 65 + (base <= 36 ? 10 : 36);
      else if (ch === "@") x = 62;
      else if (ch === "_") x = 63;
      else return Number.NaN;
      if (x >= base) return Number.NaN;
      v = BigInt.asIntN(64, v * BigInt(base) + BigInt(x));
    }
    return v;
  }
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) return BigInt.asIntN(64, BigInt(\`0x\${s.slice(2)}\`));
  if (/^0[0-9]+$/.test(s)) return /[89]/.test(s) ? Number.NaN : BigInt.asIntN(64, BigInt(\`0o\${s.slice(1)}\`));
  if (/^[0-9]+$/.test(s)) return BigInt.asIntN(64, BigInt(s));
  const n = Number.parseInt(s, 10);
  return Number.isNaN(n) ? n : __cbI(n);
}
// A variable's value that is all digits: a number in bash's bases (010 is octal).
function __cbNum(text) {
  const t = text.trim();
  const v = __cbLo(t.replace(/^-/, ""));
  if (typeof v !== "bigint") throw new Ge(\`\${t}: value too great for base (error token is "\${t}")\`);
  return t.startsWith("-") ? BigInt.asIntN(64, -v) : v;
}
async function __cbTestInt(e, t) {
  if ((t = t.trim()) === "") return 0n;
  try {
    return await __cbTe64(e, Me(new be(), t).expression);
  } catch {
    return __cbI(o4(t));
  }
}
function __cbRc(e) {
  const m = /^\\s*([+-]?)(\\d+)\\s*$/.exec(e);
  if (e.trim() === "") return { value: 0n, valid: true };
  return m ? { value: BigInt(m[1] + m[2]), valid: true } : { value: 0n, valid: false };
}
`;

/** Routes a minified function to a replacement, keeping the old body under another name. */
const reroute = (head: string, call: string, oldName: string) => ({
  find: head,
  replace: `${head}return ${call}}${head.replace(/^(async )?function \w+/, `$1function ${oldName}`)}`,
});

export const arithInt64: Patch = {
  name: "arith-int64",
  why: "Bash arithmetic is 64-bit signed with wrap-around; just-bash used doubles and 32-bit bit operations.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    reroute("function qN(e,t,n){", "__cbBinary(e,t,n)", "__cbOld_qN"),
    reroute("function Yw(e,t,n){", "__cbAssign(e,t,n)", "__cbOld_Yw"),
    reroute("function ZN(e,t){", "__cbUnary(e,t)", "__cbOld_ZN"),
    reroute("function Lo(e){", "__cbLo(e)", "__cbOld_Lo"),
    reroute("async function i4(e,t){", "__cbTestInt(e,t)", "__cbOld_i4"),
    reroute("function rc(e){", "__cbRc(e)", "__cbOld_rc"),
    {
      find: "async function Te(e,t,n=!1){return Mi(e,t,n,Jw())}async function Mi(e,t,n,r){",
      replace:
        "async function Te(e,t,n=!1){return Number(await Mi(e,t,n,Jw()))}async function __cbTe64(e,t,n=!1){return Mi(e,t,n,Jw())}async function Mi(e,t,n,r){return __cbI(await __cbMiOld(e,t,n,r))}async function __cbMiOld(e,t,n,r){",
    },
    // Values read as numbers: exact, not through parseInt's double.
    {
      find: "if(!Number.isNaN(s)&&/^-?\\d+$/.test(r.trim()))return s;",
      replace: "if(!Number.isNaN(s)&&/^-?\\d+$/.test(r.trim()))return __cbNum(r);",
    },
    {
      find: "if(!Number.isNaN(r)&&/^-?\\d+$/.test(t.trim()))return r;",
      replace: "if(!Number.isNaN(r)&&/^-?\\d+$/.test(t.trim()))return __cbNum(t);",
    },
    {
      find: "if(!Number.isNaN(a)&&/^-?\\d+$/.test(o))return a;let l=new be",
      replace: "if(!Number.isNaN(a)&&/^-?\\d+$/.test(o))return __cbNum(o);let l=new be",
    },
    {
      find: "let o=i.stdout.trim();return Number.parseInt(o,10)||0}",
      replace: "let o=i.stdout.trim();return __cbI(o)}",
    },
    {
      find: "let i=await Gl(e,t.content);return Number.parseInt(i,10)||0}",
      replace: "let i=await Gl(e,t.content);return __cbI(i)}",
    },
    { find: "?await kd(e,i,r):Number.parseInt(i,10)||0}", replace: "?await kd(e,i,r):__cbI(i)}" },
    // Array subscripts index a Map of Numbers.
    {
      find: "if(t.index){let a=await s(t.index);if(a<0){",
      replace: "if(t.index){let a=Number(await s(t.index));if(a<0){",
    },
    { find: "else{let p=await s(t.subscript);if(p<0){", replace: "else{let p=Number(await s(t.subscript));if(p<0){" },
    // ++ and -- on the evaluated operand, wrapped.
    {
      find: 'a=Number.parseInt(await We(e,o),10)||0,l=t.operator==="++"?a+1:a-1;',
      replace: 'a=i,l=__cbI(t.operator==="++"?a+1n:a-1n);',
    },
    {
      find: 'let c=Number.parseInt(Xe(e,o,l)||"0",10)||0,u=t.operator==="++"?c+1:c-1;',
      replace: 'let c=i,u=__cbI(t.operator==="++"?c+1n:c-1n);',
    },
    {
      find: 'let a=Number.parseInt(e.state.env.get(o)||"0",10)||0,l=t.operator==="++"?a+1:a-1;',
      replace: 'let a=__cbI(e.state.env.get(o)||"0"),l=__cbI(t.operator==="++"?a+1n:a-1n);',
    },
    {
      find: 'l=Number.parseInt(Xe(e,o,a)||"0",10)||0,c=t.operator==="++"?l+1:l-1;',
      replace: 'l=__cbI(Xe(e,o,a)||"0"),c=__cbI(t.operator==="++"?l+1n:l-1n);',
    },
    { find: 'c=Number.parseInt(l||"0",10)||0,u=await s(t.value)', replace: 'c=__cbI(l||"0"),u=await s(t.value)' },
    {
      find: 'let a=Number.parseInt(e.state.env.get(o)||"0",10)||0,l=await s(t.value)',
      replace: 'let a=__cbI(e.state.env.get(o)||"0"),l=await s(t.value)',
    },
    // Where a result is printed or stored as text, the exact value.
    {
      find: "return String(await Te(e,l.expression,!0))}return String(await Te(e,t.expression.expression,!0))",
      replace:
        "return String(await __cbTe64(e,l.expression,!0))}return String(await __cbTe64(e,t.expression.expression,!0))",
    },
    {
      find: "h=Me(f,p);c=String(await Te(e,h.expression))}else{let d=Me(f,r);c=String(await Te(e,d.expression))}",
      replace:
        "h=Me(f,p);c=String(await __cbTe64(e,h.expression))}else{let d=Me(f,r);c=String(await __cbTe64(e,d.expression))}",
    },
    {
      find: "s=await Te(e,r.expression);return String(s)}",
      replace: "s=await __cbTe64(e,r.expression);return String(s)}",
    },
  ],
  shows: [
    "echo $((1<<31)) $((1<<63)) $((9223372036854775807)) $((9223372036854775807+1)) $((5<<-1)) $((2**64)) $((18446744073709551615))",
    "x=9223372036854775807; ((x++)); echo $x; let y=x-1; echo $y; declare -i n=2**62; n+=2**62; echo $n",
    "x=010; echo $((x)) $((-9223372036854775808/-1)) $((-7%3)) $((0xffffffffffffffff))",
    "[[ 9223372036854775807 -eq 9223372036854775806 ]] && echo eq || echo ne; [ 9223372036854775807 -gt 9223372036854775806 ] && echo gt",
    "a=(1 2 3); echo ${a[1<<64]} $((a[1<<65])) $((a[2**64]))",
  ],
};
