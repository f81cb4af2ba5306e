/**
 * What the shell says of a command it does not have. just-bash answers `bash: pandoc:
 * command not found`, and for the commands its browser build leaves out (python3, sqlite3…)
 * `command not available in browser environments … use the Node.js bundle`: advice to
 * just-bash's embedder that means nothing to a script's author. Both become a pointer to the
 * executor that has the command. The rewrite touches just-bash's own line only: a whole line
 * of exactly that shape. The exit status stays 127.
 */
const missingCommandLine = /^bash: ([^\s:]+): command not (?:found|available in browser environments\.[^\n]*)$/gm;

export function explainMissingCommands(stderr: string): string {
  if (!stderr.includes(": command not ")) return stderr;
  return stderr.replace(
    missingCommandLine,
    (_line, name: string) =>
      `bash: ${name}: command not found; the shell executor has bash and its utilities only: run ${name} with the container executor ("executor": "container"), a full Linux system over the same files`,
  );
}
