/**
 * A command the shell lacks is "command not found", whichever it is. just-bash's browser
 * build said of six (tar, yq, xan, sqlite3, python3, python) `command not available in browser
 * environments. Exclude 'python3' from your commands or use the Node.js bundle.`: advice to
 * just-bash's embedder that means nothing to a script's author. The guest's stderr rewrite
 * (executors/shell/guest/missingCommand.ts) turned it into a pointer to the container executor,
 * but only where stderr reached the run's stderr: after `2>&1`, `2>file` or `|&` the advice
 * went on. Fixed where the message is made, it is bash's own line wherever it goes, and the
 * rewrite adds the pointer on stderr as for any missing command.
 */
import type { Patch } from "./patch.ts";

export const excludedCommandNotFound: Patch = {
  name: "excluded-command-not-found",
  why: "A command the shell does not have is `command not found`, wherever its stderr goes.",
  edits: [
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the anchor is the bundle's own template literal.
      find: "if(!c)return n4(t)?K(`bash: ${t}: command not available in browser environments. Exclude '${t}' from your commands or use the Node.js bundle.\n`,127):K(",
      replace: "if(!c)return K(",
    },
  ],
  // xan is one of the six and is not on Debian's PATH, so bash too has no such command. (A
  // redirected message lacks bash's `line 1: `, which error-line-numbers adds on stderr only.)
  shows: ['xan --version; echo "status $?"', 'xan 2>/dev/null || echo "status $?"'],
};
