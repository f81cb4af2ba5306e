/** `cubicle share ws:<id>:/path`: a public link to one file. */
import type { Command } from "commander";
import { CliError, clientFor, examples, flagsOf, printJson } from "../output.ts";
import { parseRemote } from "../remotePath.ts";
import { workspaceById } from "../workspace.ts";

export function registerShare(program: Command): void {
  program
    .command("share")
    .description("make a public link to one file of a workspace, and print it")
    .argument("<file>", "ws:<workspace id>:/path")
    .option("--ttl <seconds>", "how long the link works", Number)
    .addHelpText("after", examples("cubicle share ws:$WS:/docs/report.pdf --ttl 3600"))
    .action(async (file: string, options: { ttl?: number }, command: Command) => {
      const flags = flagsOf(command);
      const remote = parseRemote(file);
      if (!remote) throw new CliError("<file> must be ws:<workspace id>:/path", 2);
      const workspace = workspaceById(clientFor(flags), remote.workspaceId);
      const share = await workspace.share({
        path: remote.path,
        ...(options.ttl === undefined ? {} : { ttlSeconds: options.ttl }),
      });
      if (flags.json) printJson(share);
      else process.stdout.write(`${share.url}\n`);
    });
}
