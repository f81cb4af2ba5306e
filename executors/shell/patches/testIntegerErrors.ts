/**
 * `test` and `[` say why an integer comparison failed, as bash does: `[ 1 -eq x ]` prints
 * `bash: line 1: [: x: integer expression expected` (status 2), a number past 64 bits is not an
 * integer either, and a `[` without `]` says `bash: line 1: [: missing ]'`. just-bash returned
 * status 2 silently and compared 9223372036854775808 as if it were a number.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbRcRange(r) {
  return r.valid && (r.value > 9223372036854775807n || r.value < -9223372036854775808n) ? { value: 0n, valid: false } : r;
}
`;

export const testIntegerErrors: Patch = {
  name: "test-integer-errors",
  why: "test and [ print 'integer expression expected' for a non-integer or a number past 64 bits, and '[: missing ]' with bash's prefix.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'let o=rc(r),a=rc(i);return!o.valid||!a.valid?Q("","",2):',
      replace:
        'let o=__cbRcRange(rc(r)),a=__cbRcRange(rc(i));return!o.valid||!a.valid?K(`bash: ${e.__cbTestName??"test"}: ${o.valid?i:r}: integer expression expected\n`,2):',
    },
    {
      find: 'if(t==="["){if(n[n.length-1]!=="]")return K("[: missing `]\'\\n",2);f=n.slice(0,-1)}return jo(c,f)}',
      replace:
        'if(t==="["){if(n[n.length-1]!=="]")return K("bash: [: missing `]\'\\n",2);f=n.slice(0,-1)}return c.__cbTestName=t,jo(c,f)}',
    },
  ],
  shows: [
    "[ 1 -eq x ]; echo $?; test abc -lt 3; echo $?; [ 9223372036854775808 -gt 0 ]; echo $?",
    "test 9223372036854775807 -gt 9223372036854775806 && echo big; [ 1 -eq 1; echo $?",
  ],
};
