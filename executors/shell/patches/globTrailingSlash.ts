// A glob ending in a slash (star-slash, or src/star-slash) matches directories only and
// keeps the slash (`d1/ d2/`), as in bash; just-bash dropped the trailing slash from the
// pattern, so star-slash matched files too. (Line comments: the pattern would end a block one.)
import type { Patch } from "./patch.ts";

export const globTrailingSlash: Patch = {
  name: "glob-trailing-slash",
  why: "A glob ending in / matches directories only and keeps the slash.",
  edits: [
    {
      find: "async expand(t){if(this.globstar){",
      replace:
        'async expand(t){if(t.length>1&&t.endsWith("/")){let r=await this.__cbExpand(t.replace(/\\/+$/,"")),s=[];for(let i of r)try{(await this.fs.stat(this.fs.resolvePath(this.cwd,i))).isDirectory&&s.push(`${i}/`)}catch{}return s}return this.__cbExpand(t)}async __cbExpand(t){if(this.globstar){',
    },
  ],
  shows: ["mkdir -p d1 d2/x && touch f1 d2/f; echo */; echo d*/*/; echo */x*; echo nomatch*/"],
};
