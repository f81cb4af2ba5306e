/**
 * An expansion error that ends the shell (an unbound variable under `set -u`, `${x:?msg}`)
 * ends `bash -c` with status 127, and a subshell with 1; `${x:?msg}` names the variable
 * (`bash: x: msg`). just-bash exited 1 in both places and left the name out of the message.
 */
import type { Patch } from "./patch.ts";

export const fatalExpansionStatus: Patch = {
  name: "fatal-expansion-status",
  why: "An unbound variable or ${x:?msg} ends bash -c with 127 (a subshell with 1), and ${x:?msg} names x.",
  edits: [
    {
      // The top-level script's handler; a subshell's error reaches its own handler, which keeps 1.
      find: 'if(i instanceof Jt)return r.append("stdout",i.stdout,i.internalOutputAccounting.stdout),r.append("stderr",i.stderr,i.internalOutputAccounting.stderr),n=1,',
      replace:
        'if(i instanceof Jt)return r.append("stdout",i.stdout,i.internalOutputAccounting.stdout),r.append("stderr",i.stderr,i.internalOutputAccounting.stderr),n=127,',
    },
    {
      find: 'let o=n.word?await s(e,n.word.parts,r.inDoubleQuotes):`${t}: parameter null or not set`;throw new he(1,"",`bash: ${o}\n`)}',
      replace:
        'let o=`${t}: ${(n.word?await s(e,n.word.parts,r.inDoubleQuotes):"")||"parameter null or not set"}`;let E=new Jt(t);E.stderr=`bash: ${o}\\n`;throw E}',
    },
    {
      // A subshell reported the error's bare message ("x: unbound variable") instead of its text.
      find: 'i.build(a.exitCode)):(i.append("stderr",`${ht(a)}\n`),i.build(1))}return i.build(o)}',
      replace:
        'i.build(a.exitCode)):a instanceof Jt?(i.append("stdout",a.stdout,a.internalOutputAccounting.stdout),i.append("stderr",a.stderr,a.internalOutputAccounting.stderr),i.build(1)):(i.append("stderr",`${ht(a)}\n`),i.build(1))}return i.build(o)}',
    },
  ],
  shows: [
    "echo ${x:?}; echo after",
    "x=; echo ${x:?nope}",
    '(echo ${u:?is required}); echo "sub=$?"',
    "set -u; echo $zz; echo after",
    'set -u; (echo $zz); echo "sub=$?"',
  ],
};
