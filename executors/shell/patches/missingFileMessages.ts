/**
 * A missing input file is reported as each GNU tool words it, with its exit status:
 * `head: cannot open 'x' for reading: …` (and tail), `sort: cannot read: x: …` (status 2),
 * `sed: can't read x: …` (2), `awk: cannot open x (No such file or directory)` (2),
 * `jq: error: Could not open file x: …`. just-bash wrote `tool: x: No such file or directory`
 * for all of them, with status 1 for sort, sed and awk, so `sort f || …` scripts that test
 * for 2 and readers of the message saw something else.
 */
import type { Patch } from "./patch.ts";

export const missingFileMessages: Patch = {
  name: "missing-file-messages",
  why: "head, tail, sort, sed, awk and jq report a missing file in GNU's words, sort, sed and awk with status 2.",
  edits: [
    {
      find: "me(g),c.append(`${n}: ${m}: No such file or directory\n`),u=1",
      replace: "me(g),c.append(`${n}: cannot open '${m}' for reading: No such file or directory\n`),u=1",
    },
    {
      find: "return{filename:p,content:ra,error:`${r}: ${p}: No such file or directory\n`}",
      replace:
        'return{filename:p,content:ra,error:r==="sort"?`sort: cannot read: ${p}: No such file or directory\\n`:r==="jq"?`jq: error: Could not open file ${p}: No such file or directory\\n`:`${r}: ${p}: No such file or directory\\n`}',
    },
    {
      find: 'let s=await ei(t,r,{cmdName:"sort"});if(!s.ok)return s.error;',
      replace: 'let s=await ei(t,r,{cmdName:"sort"});if(!s.ok)return{...s.error,exitCode:2};',
    },
    {
      find: 'catch(b){if(b instanceof ye)throw b;return b instanceof C?{stdout:"",stderr:`sed: ${Ye(b.message)}\n`,exitCode:C.EXIT_CODE}:{stdout:"",stderr:`sed: ${m}: No such file or directory\n`,exitCode:1}}',
      replace:
        'catch(b){if(b instanceof ye)throw b;return b instanceof C?{stdout:"",stderr:`sed: ${Ye(b.message)}\n`,exitCode:C.EXIT_CODE}:{stdout:"",stderr:`sed: can\'t read ${m}: No such file or directory\n`,exitCode:2}}',
    },
    {
      find: 'catch(w){if(w instanceof ye)throw w;return w instanceof C?{stdout:"",stderr:`sed: ${Ye(w.message)}\n`,exitCode:C.EXIT_CODE}:{stdout:"",stderr:`sed: ${m}: No such file or directory\n`,exitCode:1}}',
      replace:
        'catch(w){if(w instanceof ye)throw w;return w instanceof C?{stdout:"",stderr:`sed: ${Ye(w.message)}\n`,exitCode:C.EXIT_CODE}:{stdout:"",stderr:`sed: can\'t read ${m}: No such file or directory\n`,exitCode:2}}',
    },
    {
      find: 'return{stdout:"",stderr:`awk: ${S}: No such file or directory\n`,exitCode:1}',
      replace: 'return{stdout:"",stderr:`awk: cannot open ${S} (No such file or directory)\n`,exitCode:2}',
    },
  ],
  shows: [
    'head -n 1 nothing; echo "rc=$?"; tail nothing; echo "rc=$?"; sort nothing; echo "rc=$?"',
    'sed p nothing; echo "rc=$?"; sed -i p nothing; echo "rc=$?"; awk \'{print}\' nothing; echo "rc=$?"; jq . nothing; echo "rc=$?"',
  ],
};
