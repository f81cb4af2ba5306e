/**
 * `paste` with no file reads standard input, as POSIX and GNU paste do (`seq 3 | paste -sd+`
 * is a common way to join lines); just-bash printed its usage and failed.
 */
import type { Patch } from "./patch.ts";

export const pasteStdin: Patch = {
  name: "paste-stdin",
  why: "paste with no file operand reads standard input.",
  edits: [
    {
      find: '"string_length");if(i.length===0)return{stdout:"",stderr:`usage: paste',
      replace: '"string_length");if(i.length===0&&(i=["-"]),i.length===0)return{stdout:"",stderr:`usage: paste',
    },
  ],
  shows: ["printf 'a\\nb\\nc\\n' | paste -sd,", "seq 3 | paste -sd+", "printf '1\\n2\\n' | paste - -"],
};
