/**
 * `printf '%5b|%-5b|%.2b'` pads and cuts a `%b` argument like `%s` does, after its escapes are
 * read; just-bash ignored the width and precision of `%b`.
 */
import type { Patch } from "./patch.ts";

export const printfBWidth: Patch = {
  name: "printf-b-width",
  why: "printf %b takes a width and a precision, as %s does.",
  edits: [
    {
      find: 'case"b":{let o=C8(n,r);return{value:o.value,parseError:!1,parseErrMsg:"",stopped:o.stopped}}',
      replace:
        'case"b":{let o=C8(n,r),m=e.match(/^%(-?)(\\d*)(?:\\.(\\d*))?b$/),v=o.value;m&&(m[2]||m[3]!==void 0)&&(v=Ys(v,m[1]?-(+m[2]||0):+m[2]||0,m[3]!==void 0?+m[3]||0:-1,r));return{value:v,parseError:!1,parseErrMsg:"",stopped:o.stopped}}',
    },
  ],
  shows: ["printf '%5b|%-5b|%.2b|%b|\\n' 'a\\tb' x 'abc' 'q\\n'"],
};
