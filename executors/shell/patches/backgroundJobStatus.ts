/**
 * A command run with `&` leaves `$?` at 0, gets a fresh `$!`, and `wait PID` returns its exit
 * status, so `cmd & pids+=($!); … wait "$p" || fail` counts failures as in bash. just-bash runs
 * a background command to completion on the spot (it has no concurrency); it left `$?` at the
 * command's status, kept `$!` unchanged, and `wait` always returned 0. The command still runs
 * first and in the current shell (so a variable it sets stays set, where bash's job would run
 * in a subshell), and `set -e` or `exit` inside it ends only the job. `wait` with no operand
 * returns 0; `$!` is empty before the first job; an unknown PID is "not a child of this shell", 127.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbWait(ctx, args) {
  const ids = args.filter((a) => !a.startsWith("-"));
  let rc = 0, err = "";
  for (const id of ids) {
    const jobs = ctx.state.__cbJobs;
    if (jobs?.has(id)) rc = jobs.get(id);
    else (err += \`bash: wait: pid \${id} is not a child of this shell\\n\`), (rc = 127);
  }
  return Q("", err, rc);
}
`;

export const backgroundJobStatus: Patch = {
  name: "background-job-status",
  why: "cmd & leaves $? at 0 and a new $!, and wait PID returns that job's exit status.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: "async executeStatement(t){",
      replace:
        'async executeStatement(t){if(t.background){let R;try{R=await this.executeStatement({...t,background:!1})}catch(E){if(!(E instanceof Yt||E instanceof he))throw E;R=Q(E.stdout??"",E.stderr??"",E.exitCode??1)}let S=this.ctx.state,P=Math.max(S.lastBackgroundPid||0,(S.virtualPid||1)+100)+1;return S.lastBackgroundPid=P,(S.__cbJobs??=new Map).set(String(P),R.exitCode),S.lastExitCode=0,S.env.set("?","0"),{...R,exitCode:0}}',
    },
    {
      find: 'case"!":return String(e.state.lastBackgroundPid);',
      replace: 'case"!":return e.state.lastBackgroundPid?String(e.state.lastBackgroundPid):"";',
    },
    { find: 'if(t==="wait")return Fe;', replace: 'if(t==="wait")return __cbWait(c,n);' },
  ],
  shows: [
    'echo "[$!]"; false & echo "bg status $?"; wait $!; echo "wait status $?"',
    '(exit 3) & p=$!; true; wait $p; echo "rc $?"; wait; echo "all $?"',
    'for i in 1 2 3; do ( exit $i ) & pids+=($!); done; fails=0; for p in "${pids[@]}"; do wait $p || ((fails++)); done; echo "fails=$fails"',
    'set -e; (false; echo never) & wait $! || echo "job failed $?"; exit 5 & wait $!; echo "exit job $?"; wait 99999; echo "unknown $?"',
  ],
};
