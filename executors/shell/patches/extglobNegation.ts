/**
 * After `shopt -s extglob`, `!(pattern)` matches anything the patterns do not: in a
 * command's arguments (`echo !(*.o)`, `rm -- f.!(txt)`), in `case` patterns and in `[[ == ]]`.
 * just-bash had two gaps. Its lexer read a `!` that begins a word as the pipeline negation
 * `!`, so `echo !(*.o)` was a syntax error and `case $f in !(*.o))` a parse error; a `!(`
 * now begins a word where a word is expected: after another word of the same command, or
 * where `in` or `;;` (newlines aside) says a case pattern or a for list comes. At the start
 * of a command `!(cmd)` stays the negation of a subshell, as bash has it without extglob.
 *
 * And every glob translator writes `!(…)` as a regular-expression lookahead, which the
 * RE2 engine just-bash compiles with refuses, so each such match failed. A pattern RE2
 * refuses only for a negative lookahead (no lookbehind, no backreference) is compiled by
 * JavaScript's own engine instead, for test() and exec(): bash's own matcher backtracks
 * in the same way, and the script's time limit bounds a pathological pattern as it bounds
 * any loop. The other methods (replace, split) still refuse such a pattern, so
 * `${x/!(a)/X}` and `${x##!(a)}` leave the value as it is where bash would change it.
 */
import type { Patch } from "./patch.ts";

/** Token types after which a word, not a command, comes (case patterns, for lists, arguments). */
const wordComesAfter = "[v.WORD,v.NAME,v.NUMBER,v.ASSIGNMENT_WORD,v.IN,v.DSEMI,v.SEMI_AND,v.SEMI_SEMI_AND]";

export const extglobNegation: Patch = {
  name: "extglob-negation",
  why: "After shopt -s extglob, !(pattern) in arguments, case patterns and [[ == ]] matches what the patterns do not.",
  edits: [
    {
      find: 'i==="!"?o==="="?(this.pos=n+2,this.column=s+2,this.makeToken(v.WORD,"!=",n,r,s)):',
      replace: `i==="!"?o==="="?(this.pos=n+2,this.column=s+2,this.makeToken(v.WORD,"!=",n,r,s)):o==="("&&${wordComesAfter}.includes(this.tokens.findLast(u=>u.type!==v.NEWLINE)?.type)?this.readWord(n,r,s):`,
    },
    {
      find: "try{let s=Rb(t),i=Tb(n);this._re2=Vr.compile(s,i)}catch(s){if(s instanceof it){",
      replace:
        'try{let s=Rb(t),i=Tb(n);this._re2=Vr.compile(s,i)}catch(s){if(s instanceof it&&t.includes("(?!")&&!/\\(\\?<|\\(\\?=|\\\\[1-9]/.test(t))try{this._lookahead=new RegExp(t,n);let e=()=>{throw new SyntaxError(`Invalid regular expression: /${t}/: lookahead`)};this._re2={matcher:e,groupCount:e,namedGroups:e};return}catch{}if(s instanceof it){',
    },
    {
      find: "test(t){return this._global&&(this._lastIndex=0),this.acquireMatcher(t).find()}exec(t){",
      replace:
        "test(t){if(this._lookahead)return this._lookahead.lastIndex=0,this._lookahead.test(t);return this._global&&(this._lastIndex=0),this.acquireMatcher(t).find()}exec(t){if(this._lookahead)return this._lookahead.exec(t);",
    },
  ],
  shows: [
    "shopt -s extglob\ntouch f.c f.h f.o g.txt; echo !(*.o); echo f.!(o|h) !(*.@(c|h)); echo x !(nothing*)",
    'shopt -s extglob\nfor f in a.c b.o c.h; do case $f in !(*.o)) echo "keep $f";; *) echo "drop $f";; esac; done\ncase x.c in\n  !(*.h)) echo not-h;;\nesac',
    "shopt -s extglob\n[[ a.o == !(*.c) ]] && echo notc; [[ a.c == !(*.c) ]] || echo isc; [[ abc == a!(x)c ]] && echo mid; ! (false); echo $?",
  ],
};
