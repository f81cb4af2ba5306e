/**
 * `a |& b` hands b the command's stdout and then its stderr, the order a command that
 * writes each once produces, as `a 2>&1 | b` already did. just-bash put stderr first.
 * (Writes that alternate between the two streams within one command still come out
 * grouped: just-bash keeps a command's stdout and stderr apart.)
 */
import type { Patch } from "./patch.ts";

export const pipeStderrOrder: Patch = {
  name: "pipe-stderr-order",
  why: "a |& b gives b the command's stdout before its stderr, as a 2>&1 | b does.",
  edits: [
    { find: "t.pipeStderr?.[w]??!1?s=Dn(R.stderr)+zr(R):", replace: "t.pipeStderr?.[w]??!1?s=zr(R)+Dn(R.stderr):" },
  ],
  shows: ["{ echo out; echo err >&2; } |& cat", "{ echo a; echo b >&2; } |& tr a-z A-Z; echo hi |& cat"],
};
