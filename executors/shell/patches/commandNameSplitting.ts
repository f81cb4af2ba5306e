/**
 * A command name made by an expansion is split into words like any argument: `cmd="echo hi";
 * $cmd` runs echo with the argument hi, and `"$@"` runs the first argument with the rest.
 * just-bash expanded the name as one string, so both said `echo hi: command not found`.
 * The name is expanded once (a command substitution in it runs once); its first word is the
 * command and the others come before the arguments.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbNameExpands(word) {
  return word.parts.some((p) => p.type === "ParameterExpansion" || p.type === "CommandSubstitution" || p.type === "ArithmeticExpansion" || p.type === "DoubleQuoted");
}
`;

export const commandNameSplitting: Patch = {
  name: "command-name-splitting",
  why: 'A command name made by an expansion is split into words: cmd="echo hi"; $cmd runs echo hi, and "$@" runs its first argument.',
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'let u=await _e(this.ctx,t.name),f=[],d=[],p=(N,I)=>{if(f.length>=this.ctx.limits.maxArrayElements)throw new C(`expanded argument element limit exceeded (${this.ctx.limits.maxArrayElements})`,"array_elements");f.push(N),d.push(I)};',
      replace:
        'let __cbRest=[],__cbRestQ=!1,u=__cbNameExpands(t.name)?await dr(this.ctx,t.name).then(W=>(__cbRest=W.values.slice(1),__cbRestQ=W.quoted,W.values[0]??"")):await _e(this.ctx,t.name),f=[],d=[],p=(N,I)=>{if(f.length>=this.ctx.limits.maxArrayElements)throw new C(`expanded argument element limit exceeded (${this.ctx.limits.maxArrayElements})`,"array_elements");f.push(N),d.push(I)};for(let x of __cbRest)p(x,__cbRestQ);',
    },
  ],
  shows: [
    'cmd="echo hi"; $cmd; x="printf %s-"; $x a b; echo',
    'c="ls -d ."\n$c\nset -- echo "x  y"; "$@"; run() { "$@"; }; run printf "%s|" a "b c"; echo',
    "e=; $e echo empty-name; n=$(echo echo) ; $n from-substitution",
  ],
};
