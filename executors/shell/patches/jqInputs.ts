/**
 * jq's `input` and `inputs` read the next input values: `jq -n '[inputs]'` gathers them,
 * `jq -n 'reduce inputs as $x (0; . + $x)'` sums a stream, `input` takes one more. just-bash
 * knew neither ("Unknown function"), and with -n it never read its input. The inputs are
 * parsed up front into a queue that the main loop and these builtins share; with -n a parse
 * error is raised only when `input` reaches it, as jq reads lazily.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbJqQueue(x, So, y) {
  const q = [];
  try {
    for (const { content } of x) {
      const text = content.trim();
      if (text) for (const v of So(text, y)) q.push(v);
    }
  } catch (error) {
    q.__cbErr = error;
  }
  return q;
}
function __cbJqInput(q) {
  if (q.length) return q.shift();
  if (q.__cbErr) throw q.__cbErr;
  throw new Error("No more inputs");
}
`;

export const jqInputs: Patch = {
  name: "jq-inputs",
  why: "jq's input and inputs read the next input values (jq -n '[inputs]').",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: "function jg(e,t,n,r){",
      replace:
        'function jg(e,t,n,r){if(n.length===0&&r.__cbInputs&&(t==="input"||t==="inputs"))return t==="input"?[__cbJqInput(r.__cbInputs)]:(()=>{let q=r.__cbInputs,o=q.splice(0);if(q.__cbErr)throw q.__cbErr;return o})();',
    },
    // The evaluation context is made from the options: the queue goes along.
    {
      find: "function DS(e){let t=new Map;",
      replace: "function DS(e){return{...__cbOldDS(e),__cbInputs:e?.__cbInputs}}function __cbOldDS(e){let t=new Map;",
    },
    // With -n the input is read too (only -R and --slurp keep their own handling).
    { find: "let x=[];if(!l)if(m.length===0", replace: "let x=[];if(!l||!s&&!a)if(m.length===0" },
    {
      find: "if(l)E=te(null,S,A);else if(s&&a){",
      replace: "if(l)!s&&!a&&(A.__cbInputs=__cbJqQueue(x,So,y)),E=te(null,S,A);else if(s&&a){",
    },
    {
      find: "else for(let{content:U}of x){let B=U.trim();if(!B)continue;let F=So(B,y);for(let z of F)O(E,te(z,S,A))}",
      replace:
        "else{let Q=__cbJqQueue(x,So,y);if(Q.__cbErr&&!Q.length)throw Q.__cbErr;A.__cbInputs=Q;for(;Q.length;)O(E,te(Q.shift(),S,A));if(Q.__cbErr)throw Q.__cbErr}",
    },
  ],
  shows: [
    "jq -n 'input' <<< '1 2'; jq -n '[inputs]' -c <<< '4 5'; jq -n 'reduce inputs as $x (0; . + $x)' <<< '1 2 3'; jq -c '[., input]' <<< '1 2 3 4'",
    "echo 'not json' | jq -n '1'; printf '{\"a\":1}\\n{\"a\":2}\\n' | jq -n '[inputs.a] | add'",
  ],
};
