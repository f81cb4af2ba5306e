/**
 * `cut --output-delimiter=STR` joins the selected fields with STR (GNU); just-bash refused the
 * option as unrecognized.
 */
import type { Patch } from "./patch.ts";

export const cutOutputDelimiter: Patch = {
  name: "cut-output-delimiter",
  why: "cut takes --output-delimiter to join the selected fields.",
  edits: [
    {
      find: 'name:"cut",async execute(e,t){if(q(e))return G(dE);let n="\t",r=null,s=null,i=!1,o=[];for(let h=0;h<e.length;h++){let m=e[h];if(m==="-d")',
      replace:
        'name:"cut",async execute(e,t){if(q(e))return G(dE);let n="\t",__cbJoin=null,r=null,s=null,i=!1,o=[];for(let h=0;h<e.length;h++){let m=e[h];if(m.startsWith("--output-delimiter="))__cbJoin=m.slice(19);else if(m==="--output-delimiter")__cbJoin=e[++h]??"";else if(m==="-d")',
    },
    { find: "let g=hE(m,u);f.append(`${g.join(n)}", replace: "let g=hE(m,u);f.append(`${g.join(__cbJoin??n)}" },
  ],
  shows: [
    "printf 'a,b,c\\n' | cut -d, -f1,3 --output-delimiter=' / '",
    "printf 'a:b:c\\n' | cut -d: -f2- --output-delimiter ,",
  ],
};
