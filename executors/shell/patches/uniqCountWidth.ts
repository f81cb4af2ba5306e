/**
 * `uniq -c` right-aligns each count in 7 columns (GNU's `%7lu `), which scripts that cut or
 * sort its output by column rely on; just-bash padded to 4.
 */
import type { Patch } from "./patch.ts";

export const uniqCountWidth: Patch = {
  name: "uniq-count-width",
  why: "uniq -c pads each count to 7 columns, as GNU uniq does.",
  edits: [{ find: "r?g+=`${String(w).padStart(4)} ${b}", replace: "r?g+=`${String(w).padStart(7)} ${b}" }],
  shows: ["printf 'a\\na\\nb\\n' | uniq -c", "seq 12345 | sed 's/.*/x/' | uniq -c"],
};
