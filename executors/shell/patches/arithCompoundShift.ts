/**
 * Inside an arithmetic command (`(( ))`, also `for (( ))` and `let`), `<<=`, `>>=`, `&=` and
 * `|=` are arithmetic operators. just-bash's lexer read `((x<<=2))` with its shell operators,
 * so `<<` began a here-document whose body never came (a parse error), and `&=`/`|=`/`>>=`
 * were split into a redirection or `&` and a word `=1`. While the lexer is inside `(( ))` the
 * characters `< > & |` now make one word of the longest arithmetic operator they start.
 */
import type { Patch } from "./patch.ts";

export const arithCompoundShift: Patch = {
  name: "arith-compound-shift",
  why: "Inside (( )) the operators <<=, >>=, &=, |=, <<, >>, <= and >= are arithmetic, never a here-document or a redirection.",
  edits: [
    {
      find: 'if(i==="#"&&this.dparenDepth===0)return this.readComment(n,r,s);',
      replace:
        'if(i==="#"&&this.dparenDepth===0)return this.readComment(n,r,s);if(this.dparenDepth>0&&(i==="<"||i===">"||(i==="&"||i==="|")&&o==="=")){let u=/^(?:<<=|>>=|<<|>>|<=|>=|&=|\\|=|<|>)/.exec(t.slice(n,n+3))[0];return this.pos=n+u.length,this.column=s+u.length,this.makeToken(v.WORD,u,n,r,s)}',
    },
  ],
  shows: [
    "x=6; ((x<<=2)); echo $x; ((x>>=1)); echo $x; ((x&=5)); echo $x; ((x|=8)); echo $x; ((x^=1)); echo $x",
    "y=3; (( y <<= 4 , y >>= 2 )); echo $y; let 'y<<=1' 'y|=1'; echo $y; for ((i=1; i<=64; i<<=2)); do echo -n \"$i \"; done; echo",
    "a=(1 2 3); ((a[1]<<=3)); ((a[2]&=2)); echo ${a[@]}; ((1<<2 > 3 && 8>>1 >= 4)) && echo yes; ((2 < 1)) || echo no",
  ],
};
