/**
 * `set -x` traces go to the shell's stderr, not into the traced command's own redirections:
 * `set -x; echo hi 2>trace.txt` leaves trace.txt empty and prints `+ echo hi`. just-bash
 * added the trace to the command's stderr before applying its redirections.
 */
import type { Patch } from "./patch.ts";

export const xtraceBeforeRedirects: Patch = {
  name: "xtrace-before-redirects",
  why: "set -x traces go to the shell's stderr, not into the traced command's 2> file.",
  edits: [
    {
      find: "let A=o+x;if(A&&(S={...S,stderr:A+S.stderr}),S=await fs(this.ctx,S,t.redirections,b.targets,b.dupSources,b.standardRoutes,S.internalProducerCommand??u,S.internalProducerOmitsShellPrefix),g.finish(),E)throw E;",
      replace:
        "let A=o+x;if(S=await fs(this.ctx,S,t.redirections,b.targets,b.dupSources,b.standardRoutes,S.internalProducerCommand??u,S.internalProducerOmitsShellPrefix),A&&(S={...S,stderr:A+S.stderr}),g.finish(),E)throw E;",
    },
  ],
  shows: [
    'set -x; echo hi 2>trace.txt; set +x; echo "file: [$(cat trace.txt)]"',
    "set -x; echo out > o.txt; x=1; set +x; cat o.txt",
  ],
};
