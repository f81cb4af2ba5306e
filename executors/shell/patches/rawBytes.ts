/**
 * Escapes that make bytes make bytes: `$'\377'`, `echo -e '\xff'`, `printf '\xff'`,
 * `printf '\303\251'` (two bytes that are é) and `printf %c é` (its first byte) write the
 * bytes bash writes. just-bash turned each escaped byte into the character with that code
 * (`\xff` became ÿ, written as c3 bf), so invalid UTF-8 came out re-encoded and a UTF-8
 * sequence spelled in octal came out as two wrong characters.
 *
 * A byte from an escape is kept in the string as a lone surrogate U+DC80–U+DCFF (Python's
 * "surrogateescape"); where the escapes end, runs of those that spell valid UTF-8 become
 * the characters they spell (`__cbNorm`), so only bytes that are not text stay marked.
 * `echo` and `printf` give output holding a marked byte as a byte string (just-bash's
 * `stdoutEncoding: "binary"`), which pipes, files and the executor's output pass on byte
 * for byte. Elsewhere (a marked byte in a variable handed to another command) a marker is
 * text and comes out as U+FFFD.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbByte(b) {
  b &= 255;
  return String.fromCharCode(b >= 128 ? 0xdc00 + b : b);
}
const __cbUtf8 = new TextDecoder("utf-8", { fatal: true });
function __cbNorm(s) {
  if (!/[\\udc80-\\udcff]/.test(s)) return s;
  return s.replace(/[\\udc80-\\udcff]+/g, (run) => {
    const bytes = Array.from(run, (c) => c.charCodeAt(0) - 0xdc00);
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const lead = bytes[i];
      const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      let text = null;
      if (size > 1 && i + size <= bytes.length) {
        try {
          text = __cbUtf8.decode(new Uint8Array(bytes.slice(i, i + size)));
        } catch {}
      }
      if (text === null) {
        out += run[i];
        i++;
      } else {
        out += text;
        i += size;
      }
    }
    return out;
  });
}
const __cbEncoder = new TextEncoder();
function __cbBytesResult(r) {
  if (typeof r?.stdout !== "string" || !/[\\udc80-\\udcff]/.test(r.stdout)) return r;
  let out = "";
  for (const ch of r.stdout) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) out += String.fromCharCode(c - 0xdc00);
    else for (const b of __cbEncoder.encode(ch)) out += String.fromCharCode(b);
  }
  return { ...r, stdout: out, stdoutEncoding: "binary" };
}
`;

export const rawBytes: Patch = {
  name: "raw-bytes",
  why: "Escaped bytes ($'\\377', echo -e '\\xff', printf '\\xff', printf %c) are written as bytes, not re-encoded as characters.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    // printf's format (ia): octal and hex escapes, and its result.
    {
      find: 'n+=String.fromCharCode(parseInt(i,8)),r=o;break}case"x":{let i=[],o=r;',
      replace: 'n+=__cbByte(parseInt(i,8)),r=o;break}case"x":{let i=[],o=r;',
    },
    {
      find: 'try{let a=new TextDecoder("utf-8",{fatal:!0});n+=a.decode(new Uint8Array(i))}catch{for(let a of i)n+=String.fromCharCode(a)}',
      replace: "for(let a of i)n+=__cbByte(a);",
    },
    { find: "return n}var Pc,At=L(", replace: "return __cbNorm(n)}var Pc,At=L(" },
    // printf %b and %c.
    {
      find: "n+=String.fromCharCode(parseInt(i,8)),r=o;break}default:",
      replace: "n+=__cbByte(parseInt(i,8)),r=o;break}default:",
    },
    {
      find: 'i.length>0?(n+=d8(i),r=o):(n+="\\\\x",r+=2)',
      replace: 'i.length>0?(n+=i.map(__cbByte).join(""),r=o):(n+="\\\\x",r+=2)',
    },
    {
      find: "let l=new TextEncoder().encode(n)[0];return{value:String.fromCharCode(l)",
      replace:
        "let l=/^[\\udc80-\\udcff]/.test(n)?n.charCodeAt(0)-56320:new TextEncoder().encode(n)[0];return{value:__cbByte(l)",
    },
    {
      find: "return{stdout:l,stderr:d,exitCode:f?1:0,internalStdinConsumed:0}",
      replace: "return __cbBytesResult({stdout:l,stderr:d,exitCode:f?1:0,internalStdinConsumed:0})",
    },
    // echo -e.
    { find: "let o=parseInt(s,8)%256;t+=String.fromCharCode(o)}", replace: "let o=parseInt(s,8)%256;t+=__cbByte(o)}" },
    {
      find: "let o=parseInt(s,16);t+=String.fromCharCode(o),n=i}",
      replace: "let o=parseInt(s,16);t+=__cbByte(o),n=i}",
    },
    {
      find: 'if(i=o.output,o.stop)return{stdout:i,stderr:"",exitCode:0,internalStdinConsumed:0}}return n||(i+=`',
      replace:
        'if(i=__cbNorm(o.output),o.stop)return __cbBytesResult({stdout:i,stderr:"",exitCode:0,internalStdinConsumed:0})}return n||(i+=`',
    },
    {
      find: '{stdout:i,stderr:"",exitCode:0,internalStdinConsumed:0}}},J3=',
      replace: '__cbBytesResult({stdout:i,stderr:"",exitCode:0,internalStdinConsumed:0})}},J3=',
    },
    // $'…' in the parser.
    { find: "a.length>0?(r+=mk(a),s=l):", replace: 'a.length>0?(r+=a.map(__cbByte).join(""),s=l):' },
    {
      find: "let c=parseInt(a,8);r+=String.fromCharCode(c),s=l;break",
      replace: "let c=parseInt(a,8);r+=__cbByte(c),s=l;break",
    },
    {
      find: 'return s<t.length&&t[s]==="\'"&&s++,{part:Y.literal(r),endIndex:s}',
      replace: 'return s<t.length&&t[s]==="\'"&&s++,{part:Y.literal(__cbNorm(r)),endIndex:s}',
    },
  ],
  shows: [
    "printf '\\xff\\x41' | od -An -b; printf '\\377\\200' | od -An -b; printf '\\303\\251\\n'",
    "echo -e '\\xff' | od -An -b; echo -e '\\0303\\0251'",
    "printf %s $'\\377' | od -An -b; echo $'\\xc3\\xa9' $'caf\\xc3\\xa9' | od -An -c",
    "printf '%c' é | od -An -b; printf '%b' '\\xff' | od -An -b",
    "printf '\\xff' > f; od -An -b f; rm f",
  ],
};
