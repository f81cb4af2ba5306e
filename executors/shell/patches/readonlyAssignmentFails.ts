/**
 * Assigning to a readonly variable (or array element) abandons the rest of the current line,
 * with status 1, and the script goes on at the next line: `bash -c` runs its text a line at
 * a time and such an assignment error returns it to the top of that loop (a script under
 * `set -e` ends). just-bash ended the whole script. The refusal still throws where the
 * assignment is refused; the script's loop catches it, skips the statements left on that
 * line, and continues. (A function that assigns to a readonly variable reports it past its
 * own `2>` redirection: the error travels as a thrown value.)
 */
import type { Patch } from "./patch.ts";

const helpers = `
// A statement's line is its first command's. Compound commands carry none: for them the
// line of the command that failed stands in.
function __cbLineOf(statement) {
  return statement.line ?? statement.pipelines?.[0]?.commands?.[0]?.line;
}
`;

export const readonlyAssignmentFails: Patch = {
  name: "readonly-assignment-fails",
  why: "Assigning to a readonly variable abandons the rest of that line with status 1; the next line runs.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'let r=`${n}: ${t}: readonly variable\n`;throw new he(1,"",r)}return null}',
      replace: 'let r=`${n}: ${t}: readonly variable\n`,E=new he(1,"",r);throw E.__cbAbandonLine=!0,E}return null}',
    },
    {
      find: 'let n=0,r=new hn(this.ctx.executionScope,"script");for(let s of t.statements)try{let i=await this.executeStatement(s);',
      replace:
        'let n=0,r=new hn(this.ctx.executionScope,"script"),__cbSkipLine;for(let s of t.statements)try{if(__cbSkipLine!==void 0&&__cbLineOf(s)===__cbSkipLine)continue;__cbSkipLine=void 0;let i=await this.executeStatement(s);',
    },
    {
      find: 'n=i.exitCode,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?",String(n))}catch(i){if(i instanceof he)throw i.prependOutput(r.stdout,r.stderr),i;',
      replace:
        'n=i.exitCode,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?",String(n))}catch(i){if(i?.__cbAbandonLine&&!this.ctx.state.options.errexit){r.append("stdout",i.stdout),r.append("stderr",i.stderr),n=1,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?","1"),__cbSkipLine=__cbLineOf(s)??this.ctx.state.currentLine;continue}if(i instanceof he)throw i.prependOutput(r.stdout,r.stderr),i;',
    },
  ],
  shows: [
    'readonly fixed=1\nfixed=2\necho "fixed=$fixed status=$?"',
    'echo start; readonly x=1; x=2; echo "same line $x"\necho "next line $x $?"',
    'declare -rA m=([k]=v)\nm[k]=w; echo never\necho "m=${m[k]}"\necho end',
    "set -e\nreadonly q=1\nq=2\necho never",
  ],
};
