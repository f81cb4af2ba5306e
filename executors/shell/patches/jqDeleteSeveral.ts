/**
 * jq's `del(.a, .b)` deletes every path its argument names; just-bash's deletion knew single
 * paths only and returned the input unchanged for a comma of them. Paths are deleted one
 * after another, which is what jq gives for object keys; deleting several array indices at
 * once (jq deletes them together, by their old positions) is not covered.
 */
import type { Patch } from "./patch.ts";

export const jqDeleteSeveral: Patch = {
  name: "jq-delete-several",
  why: "jq's del(.a, .b) deletes each of the paths.",
  edits: [
    {
      find: 'case"Iterate":return Array.isArray(i)?[]:i&&typeof i=="object"?Object.create(null):i;case"Pipe":{let u=function(p,h,m)',
      replace:
        'case"Comma":return s(s(i,o.left),o.right);case"Iterate":return Array.isArray(i)?[]:i&&typeof i=="object"?Object.create(null):i;case"Pipe":{let u=function(p,h,m)',
    },
  ],
  shows: [
    `echo '{"a":1,"b":2,"c":{"d":3,"e":4}}' | jq -c 'del(.a, .c.d)'`,
    `echo '{"a":1,"b":2}' | jq -c 'del(.a,.b,.z)'`,
  ],
};
