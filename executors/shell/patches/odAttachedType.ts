/**
 * `od -tx1` (the type attached to its option, as `od -An -tx1` is usually written) is the same
 * as `od -t x1`; just-bash read `-tx1` as an unknown option and dumped octal.
 */
import type { Patch } from "./patch.ts";

export const odAttachedType: Patch = {
  name: "od-attached-type",
  why: "od -tx1 (type attached to -t) selects the type, as od -t x1 does.",
  edits: [
    {
      find: 'async function uv(e,t){let n="octal"',
      replace: 'async function uv(e,t){e=e.flatMap(a=>/^-t./.test(a)?["-t",a.slice(2)]:[a]);let n="octal"',
    },
  ],
  shows: ["printf 'AB\\n' | od -An -tx1; printf '\\303\\251' | od -An -tx1; printf 'x' | od -tc"],
};
