/**
 * `od` puts each field right after the 7-digit offset, since every field carries its own
 * leading blanks (`0000000   a  \n`); just-bash added one more space after the offset, so
 * every `od -c` line was shifted by a column.
 */
import type { Patch } from "./patch.ts";

export const odColumns: Patch = {
  name: "od-columns",
  why: "od prints fields right after the offset, each field carrying its own blanks.",
  edits: [
    {
      find: 'g===0&&n!=="none"?y=`${m.toString(8).padStart(7,"0")} `:(g>0||n==="none")&&(y=n==="none"?"":"        ")',
      replace: 'g===0&&n!=="none"?y=`${m.toString(8).padStart(7,"0")}`:(g>0||n==="none")&&(y=n==="none"?"":"       ")',
    },
  ],
  shows: [
    "printf '1\\n2\\n3' | od -c",
    "printf 'q\\x27q\\n\\033' | od -c",
    "printf 'ab\\n' | od -c -t x1",
    "printf 'ab' | od -t x1",
  ],
};
