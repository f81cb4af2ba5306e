/**
 * Brace expansion is textual and comes before every other expansion, so a `$name` it puts
 * next to more name characters names a longer variable: `{$a,b}_{c,d}` is `$a_c $a_d b_c b_d`
 * and `$v{1,2}` is `$v1 $v2`. just-bash expands braces inside its parsed word, after the
 * name `$a` was already cut at the brace, so it printed `A_c A_d …`. Where a word holds a
 * bare `$name` right before a `{`, `,` or `}`, the word's text is now brace-expanded first,
 * by bash's rules (quotes, escapes, `${…}` and `$(…)` are not brace syntax), and each
 * result is parsed, and expanded (split, globbed), as a word of its own. Other words keep
 * just-bash's expansion.
 *
 * An escaped or quoted comma (`{a\,b,c}`, `{"a,b",c}`) separates nothing; just-bash's
 * splitter of brace items cut at every comma, and kept the backslash.
 */
import type { Patch } from "./patch.ts";

// Hand-written because no library does bash's textual brace expansion over shell quoting.
const braceWords = `function __cbClose(s,i){let o=s[i],c=o==="{"?"}":")",d=0;for(;i<s.length;i++){let x=s[i];if(x==="\\\\"){i++;continue}if(x==="'"){let q=s.indexOf("'",i+1);if(q<0)return-1;i=q;continue}if(x==='"'){for(i++;i<s.length&&s[i]!=='"';i++)s[i]==="\\\\"&&i++;continue}if(x===o)d++;else if(x===c&&--d===0)return i}return-1}
function __cbBraceExpand(s,k){for(let i=0;i<s.length;i++){let c=s[i];if(c==="\\\\"){i++;continue}if(c==="'"){let q=s.indexOf("'",i+1);if(q<0)return[s];i=q;continue}if(c==='"'){for(i++;i<s.length&&s[i]!=='"';i++)s[i]==="\\\\"&&i++;continue}if(c==="$"&&(s[i+1]==="{"||s[i+1]==="(")){let q=__cbClose(s,i+1);if(q<0)return[s];i=q;continue}if(c!=="{")continue;let d=0,cs=[],j=i;for(;j<s.length;j++){let x=s[j];if(x==="\\\\"){j++;continue}if(x==="'"){let q=s.indexOf("'",j+1);if(q<0){j=s.length;break}j=q;continue}if(x==='"'){for(j++;j<s.length&&s[j]!=='"';j++)s[j]==="\\\\"&&j++;continue}if(x==="$"&&(s[j+1]==="{"||s[j+1]==="(")){let q=__cbClose(s,j+1);if(q<0){j=s.length;break}j=q;continue}if(x==="{")d++;else if(x==="}"){if(--d===0)break}else x===","&&d===1&&cs.push(j)}if(j>=s.length)return[s];let body=s.slice(i+1,j),alts=null;if(cs.length){alts=[];let p=i+1;for(let q of cs)alts.push(s.slice(p,q)),p=q+1;alts.push(s.slice(p,j))}else{let m=body.match(/^(-?\\d+)\\.\\.(-?\\d+)(?:\\.\\.(-?\\d+))?$/),g=m?gd(+m[1],+m[2],m[3]?+m[3]:void 0,m[1],m[2]):(m=body.match(/^([a-zA-Z])\\.\\.([a-zA-Z])(?:\\.\\.(-?\\d+))?$/))?gd(m[1],m[2],m[3]?+m[3]:void 0):null;g?.expanded&&(alts=g.expanded.map(x=>/^[A-Za-z0-9-]+$/.test(x)?x:"'"+x+"'"))}if(!alts)continue;let pre=s.slice(0,i),posts=__cbBraceExpand(s.slice(j+1),k),out=[];for(let a of alts)for(let x of __cbBraceExpand(a,k))for(let p of posts){if(++k.n>1e4)throw new Error("brace words");out.push(pre+x+p)}return out}return[s]}
function __cbBraceWords(s){try{let r=__cbBraceExpand(s,{n:0});return r.length>1?r:null}catch{return null}}
`;

export const braceBeforeParameters: Patch = {
  name: "brace-before-parameters",
  why: "Brace expansion comes before parameter expansion ({$a,b}_{c,d} is $a_c $a_d b_c b_d), and an escaped comma in braces separates nothing.",
  edits: [
    {
      find: "function Yr(e,t,n=!1,r=!1,s=!1,i=!1,o=!1,a=!1,l=!1,c=!1,u=!0){if(r)return[Y.singleQuoted(t)];if(n){let m=m7(e,t);return[Y.doubleQuoted(m)]}",
      replace: `${braceWords}function Yr(e,t,n=!1,r=!1,s=!1,i=!1,o=!1,a=!1,l=!1,c=!1,u=!0){if(r)return[Y.singleQuoted(t)];if(n){let m=m7(e,t);return[Y.doubleQuoted(m)]}if(!a&&!s&&/\\$[A-Za-z_][A-Za-z0-9_]*[{,}]/.test(t)){let w=__cbBraceWords(t);if(w)return[{type:"BraceExpansion",__words:!0,items:w.map(x=>({type:"Word",word:Y.word(Yr(e,x,!1,!1,!1,i,o,!0,l,c,u))}))}]}`,
    },
    {
      // Each word of a textual brace expansion is expanded as a whole word: split, globbed, quoted as written.
      find: 'async function $w(e,t,n){e.coverage?.hit("bash:expansion:word_glob");',
      replace:
        'async function $w(e,t,n){if(t.parts.length===1&&t.parts[0].__words){let v=[],q=!0;for(let x of t.parts[0].items){let y=await $w(e,x.word,n);v.push(...y.values),q&&=y.quoted}return{values:v,quoted:q}}e.coverage?.hit("bash:expansion:word_glob");',
    },
    {
      // Brace items: a backslash keeps the next character, and quotes keep what they hold, out of the split.
      find: 'function s7(e){let t=[],n="",r=0;for(let s=0;s<e.length;s++){let i=e[s];i==="{"',
      replace:
        'function s7(e){let t=[],n="",r=0;for(let s=0;s<e.length;s++){let i=e[s];if(i==="\\\\"&&s+1<e.length){n+=i+e[++s];continue}if(i==="\'"||i===\'"\'){let q=e.indexOf(i,s+1);if(q>s){n+=e.slice(s,q+1),s=q;continue}}i==="{"',
    },
  ],
  shows: [
    "a=A; echo {$a,b}_{c,d}; v1=one v2=two; echo $v{1,2} x{$v1,$v2}y; echo {$a,b} pre{$a}post",
    'a=A; b="x y"; printf "<%s>" {"$a",b}_{c,d} {${a},b}_c; echo; echo {a\\,b,c} {"x,y",z} x{\\,,y}',
    "n=1; echo {$n,2}{a..b} ${n}{3..4} $(echo {p,q})",
    'a="x y"; printf "<%s>" {$a,b} {"$a",c}; touch f1 f2; g="f*"; printf "[%s]" {$g,z} x{$g,}; d=dir; for f in $d{1,2}.txt; do echo "$f"; done',
  ],
};
