/**
 * jq's `@csv` puts every string in double quotes (numbers and booleans bare), so its output
 * reads the same whatever the values hold; just-bash quoted only strings that needed it.
 */
import type { Patch } from "./patch.ts";

export const jqCsvQuotes: Patch = {
  name: "jq-csv-quotes",
  why: "jq's @csv quotes every string.",
  edits: [
    {
      find: 'let i=String(s);return i.includes(",")||i.includes(\'"\')||i.includes(`\n`)||i.includes("\\r")?`"${i.replace(',
      replace: 'let i=String(s);return true?`"${i.replace(',
    },
  ],
  shows: [`echo '[1,"a","b,c","say \\"hi\\"",true,null]' | jq -r @csv`],
};
