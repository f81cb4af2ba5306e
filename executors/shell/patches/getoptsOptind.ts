/**
 * getopts treats an empty or unset OPTIND as 1 and leaves it set, so after `local OPTIND` in
 * a function `shift $((OPTIND - 1))` works even when no option was given (bash resets
 * OPTIND to 1 whenever it is unset); just-bash read it as 1 but left it empty, and the shift
 * failed.
 */
import type { Patch } from "./patch.ts";

export const getoptsOptind: Patch = {
  name: "getopts-optind",
  why: "getopts treats an empty OPTIND as 1 and sets it, so shift $((OPTIND - 1)) works after local OPTIND.",
  edits: [
    {
      find: 'let l=Number.parseInt(e.state.env.get("OPTIND")||"1",10);l<1&&(l=1);',
      replace:
        'let l=Number.parseInt(e.state.env.get("OPTIND")||"1",10);(Number.isNaN(l)||l<1)&&(l=1),e.state.env.set("OPTIND",String(l));',
    },
  ],
  shows: [
    'f() { local OPTIND opt; while getopts "vo:" opt; do echo "opt $opt ${OPTARG-}"; done; shift $((OPTIND - 1)); echo "rest $* ($OPTIND)"; }; f -v -o x a b; f file; f',
  ],
};
