/**
 * `sort -k` finds fields as GNU sort does: without `-t`, a field is the blanks before it plus
 * the non-blanks after them (so `uniq -c` output, right-aligned counts, sorts by count with
 * `-k1,1n`), and a key with no end runs to the end of the line. just-bash split on runs of
 * blanks, which made leading blanks an empty first field, and ended `-k2` at field 2.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbSortKey(line, key, delimiter) {
  // Field starts (indices into line) and ends, GNU style.
  const starts = [], ends = [];
  if (delimiter !== null) {
    let at = 0;
    for (;;) {
      starts.push(at);
      const next = line.indexOf(delimiter, at);
      if (next < 0) { ends.push(line.length); break; }
      ends.push(next);
      at = next + delimiter.length;
    }
  } else {
    const field = /[ \\t]*[^ \\t]+|[ \\t]+$/g;
    let m;
    while ((m = field.exec(line)) !== null) { starts.push(m.index); ends.push(m.index + m[0].length); }
    if (starts.length === 0) { starts.push(0); ends.push(line.length); }
  }
  const skipBlanks = (at, limit) => { while (at < limit && (line[at] === " " || line[at] === "\\t")) at++; return at; };
  const first = key.startField - 1;
  if (first >= starts.length) return "";
  let begin = starts[first];
  if (key.ignoreLeading) begin = skipBlanks(begin, ends[first]);
  if (key.startChar !== undefined) begin = Math.min(begin + key.startChar - 1, ends[first]);
  let end = line.length;
  if (key.endField !== undefined) {
    const last = key.endField - 1;
    if (last < starts.length) {
      if (key.endChar === undefined || key.endChar === 0) end = ends[last];
      else end = Math.min(skipBlanks(starts[last], ends[last]) + key.endChar, ends[last]);
    }
  }
  return end > begin ? line.slice(begin, end) : "";
}
`;

export const sortFields: Patch = {
  name: "sort-fields",
  why: "sort -k counts a field's leading blanks as part of it and runs a key with no end to the end of the line.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    { find: "function Tu(e,t,n){", replace: "function Tu(e,t,n){return __cbSortKey(e,t,n);" },
  ],
  shows: [
    "printf 'a\\nb\\nb\\nc\\nc\\nc\\n' | uniq -c | sort -k1,1nr -k2,2",
    "printf 'a b c\\na a d\\n' | sort -k2",
    "printf 'x\\t b\\nx\\ta\\n' | sort -k2,2",
    "printf 'k:3\\nj:10\\nl:2\\n' | sort -t: -k2n",
    "printf 'ab 9\\nac 1\\naa 5\\n' | sort -k1.2,1.2 -k2n",
  ],
};
