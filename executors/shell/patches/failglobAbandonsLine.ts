/**
 * Under `shopt -s failglob`, a pattern that matches nothing abandons the rest of the line
 * with status 1, as bash does (it is an expansion error, handled like the readonly one in
 * readonly-assignment-fails: the script's loop skips what is left of the line and goes on);
 * just-bash failed only that command and ran the rest of the line. (A `for` list that matches
 * nothing is reported without bash's `line N:`: the loop carries no line of its own.)
 */
import type { Patch } from "./patch.ts";

export const failglobAbandonsLine: Patch = {
  name: "failglob-abandons-line",
  why: "Under failglob a pattern with no match abandons the rest of the line with status 1.",
  edits: [
    {
      find: "catch(s){if(r?.finish(),s instanceof pr)return K(s.stderr);throw s}}",
      replace: "catch(s){if(r?.finish(),s instanceof pr)throw s.__cbAbandonLine=!0,s;throw s}}",
    },
    {
      find: 'catch(o){if(o instanceof pr)return{stdout:"",stderr:o.stderr,exitCode:1};throw o}e.state.loopDepth++;',
      replace: "catch(o){if(o instanceof pr)throw o.__cbAbandonLine=!0,o;throw o}e.state.loopDepth++;",
    },
    {
      // Loops pass it on instead of ending with status 1.
      find: "function Xo(e,t,n,r){",
      replace:
        'function Xo(e,t,n,r){if(e?.__cbAbandonLine)return e.prependOutput(t,n),{action:"rethrow",stdout:t,stderr:n,error:e};',
    },
  ],
  shows: [
    'echo start; shopt -s failglob; echo *.nothing; echo "same line $?"\necho "next line $?"',
    "shopt -s failglob\nfor i in 1 2; do echo a$i *.zz; echo b$i; done; echo same\necho after",
  ],
};
