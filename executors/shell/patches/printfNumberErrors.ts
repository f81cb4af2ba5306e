/**
 * printf's number errors as bash gives them:
 * - the unsigned conversions (%u %o %x %X) read their argument as bash's strtoumax does, so
 *   `printf %x 18446744073709551615` is ffffffffffffffff (just-bash clamped to the signed
 *   maximum, 7fffffffffffffff);
 * - a number past the range prints bash's `printf: warning: N: Numerical result out of range`
 *   and the clamped value, status 0;
 * - each bad argument has its own `bash: line N: printf: x: invalid number` (just-bash kept
 *   the last, without `bash: line N:`);
 * - where stdout and stderr go to one place (`2>&1`), each pass through the format writes its
 *   messages before its output, as bash's printf, which flushes its output after each pass;
 * - `%c` of an empty argument is a NUL byte.
 *
 * The number parser itself, `__cbPrintfNum`, comes with printf-int64.
 */
import type { Patch } from "./patch.ts";

const helpers = `
// A printf result's messages and output, pass by pass, as one text; the messages with their line.
function __cbSeqText(t, e) {
  return t.__cbSeq.map(([err, out]) => err.replace(/^bash: (?!line \\d+: )/gm, \`bash: line \${e.state.currentLine}: \`) + out).join("");
}
function __cbPrintfMsg(n) {
  return Yn ? \`bash: printf: \${n}: invalid number\\n\` : __cbRange ? \`bash: printf: warning: \${n}: Numerical result out of range\\n\` : "";
}
`;

export const printfNumberErrors: Patch = {
  name: "printf-number-errors",
  why: "printf reads %u %o %x as unsigned 64-bit, warns 'Numerical result out of range', prints every 'invalid number' with its line before the output, and %c of '' is NUL.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'case"d":case"i":{let o=aa(n);return s=Yn,s&&(i=`printf: ${n}: invalid number\n`),{value:gh(e,o),parseError:s,parseErrMsg:i}}case"o":{let o=aa(n);return s=Yn,s&&(i=`printf: ${n}: invalid number\n`),{value:w8(e,o),parseError:s,parseErrMsg:i}}case"u":{let o=aa(n);s=Yn,s&&(i=`printf: ${n}: invalid number\n`);let a=BigInt.asUintN(64,BigInt(o));return{value:gh(e.replace("u","d"),a),parseError:s,parseErrMsg:i}}case"x":case"X":{let o=aa(n);return s=Yn,s&&(i=`printf: ${n}: invalid number\n`),{value:b8(e,o),parseError:s,parseErrMsg:i}}',
      replace:
        'case"d":case"i":{let o=__cbPrintfNum(n);return{value:gh(e,o),parseError:Yn,parseErrMsg:__cbPrintfMsg(n)}}case"o":{let o=__cbPrintfNum(n,!0);return{value:w8(e,o),parseError:Yn,parseErrMsg:__cbPrintfMsg(n)}}case"u":{let o=__cbPrintfNum(n,!0);return{value:gh(e.replace("u","d"),o),parseError:Yn,parseErrMsg:__cbPrintfMsg(n)}}case"x":case"X":{let o=__cbPrintfNum(n,!0);return{value:b8(e,o),parseError:Yn,parseErrMsg:__cbPrintfMsg(n)}}',
    },
    {
      find: 'case"c":{if(n==="")return{value:"",parseError:!1,parseErrMsg:""}',
      replace: 'case"c":{if(n==="")return{value:"\\0",parseError:!1,parseErrMsg:""}',
    },
    // Every message kept, a warning without failing.
    { find: "if(f(x),S&&(l=!0,E&&(c=E)),A)", replace: "if(f(x),S&&(l=!0),E&&(c+=E),A)" },
    { find: 'p=t.env.get("TZ");do{let{result:h', replace: 'p=t.env.get("TZ"),__cbS=[];do{let{result:h' },
    { find: "g&&(f=!0,b&&(d=b)),w)break", replace: 'g&&(f=!0),b&&(d+=b),__cbS.push([b||"",h]),w)break' },
    {
      find: "return __cbBytesResult({stdout:l,stderr:d,exitCode:f?1:0,internalStdinConsumed:0})",
      replace:
        'return __cbBytesResult({stdout:l,stderr:d,exitCode:f?1:0,internalStdinConsumed:0,__cbSeq:d!==""?__cbS.map(([e,o])=>[e,__cbBytesResult({stdout:o}).stdout]):void 0})',
    },
    // Where both streams go to one place, such a result is written pass by pass.
    { find: "let A=x+S;", replace: "let A=t.__cbSeq?__cbSeqText(t,e):x+S;" },
    {
      find: "for(let[A,O,R]of[[x,h,!0],[S,m,!1]])",
      replace:
        'for(let[A,O,R]of t.__cbSeq?h.kind==="live-stdout"&&m.kind==="live-stdout"?[[__cbSeqText(t,e),h,!0]]:[[x,h,!0],[__cbSeqText({__cbSeq:t.__cbSeq.map(([e])=>[e,""])},e),m,!1]]:[[x,h,!0],[S,m,!1]])',
    },
  ],
  shows: [
    "printf '%x %X %o %u\\n' 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615",
    "printf '%d\\n' 18446744073709551615 2>&1; echo \"status $?\"; printf '%u|%x\\n' -18446744073709551616 99999999999999999999",
    "printf '%d\\n' 12abc 2>&1; echo \"status $?\"; printf '%d %d %s\\n' 1x 2y z; echo \"status $?\"",
    "printf '%d\\n' 5z 2>err.txt; cat err.txt; printf '%d\\n' abc x 2>&1 | cat; printf '%c|%c|%c\\n' hello 1 '' | od -c",
  ],
};
