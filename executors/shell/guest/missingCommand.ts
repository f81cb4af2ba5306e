/**
 * What the shell says of a command it does not have: just-bash answers `bash: pandoc:
 * command not found` (for the six its browser build leaves out too, since the
 * excluded-command-not-found patch), which on the run's stderr becomes a pointer to the
 * executor that has the command. The rewrite touches just-bash's own line only: a whole line
 * of exactly that shape. The exit status stays 127. A script that sends its stderr elsewhere
 * (`2>&1`, `2>file`) gets bash's own line there, as bash would write it.
 */
const missingCommandLine = /^bash: (line \d+: )?([^\s:]+): command not found$/gm;

export function explainMissingCommands(stderr: string): string {
  if (!stderr.includes(": command not found")) return stderr;
  return stderr.replace(
    missingCommandLine,
    (_line, line: string | undefined, name: string) =>
      `bash: ${line ?? ""}${name}: command not found; the shell executor has bash and its utilities only: run ${name} with the container executor ("executor": "container"), a full Linux system over the same files`,
  );
}
