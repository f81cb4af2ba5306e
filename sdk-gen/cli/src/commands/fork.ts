/** `cubicle ws fork <ws> [--snapshot id | --revision n] [--name …]`: a new workspace with another's files. */
import type { Command } from "commander";
import { CliError, clientFor, collectPairs, examples, flagsOf, printJson } from "../output.ts";
import { workspaceById } from "../workspace.ts";

interface ForkOptions {
  snapshot?: string;
  revision?: string;
  name?: string;
  metadata?: Record<string, string>;
}

/** Adds `fork` under `cubicle ws` (registered after `registerWorkspaces`, which makes `ws`). */
export function registerFork(program: Command): void {
  const ws = program.commands.find((command) => command.name() === "ws");
  if (!ws) throw new Error("`cubicle ws` must be registered before `cubicle ws fork`");
  ws.command("fork")
    .description("fork a workspace, now or at a snapshot or revision, and print the new workspace's id")
    .argument("<workspace>", "the workspace to fork")
    .option("--snapshot <id>", "fork the version this snapshot pins")
    .option("--revision <n>", "fork a kept revision")
    .option("--name <name>", "a name for the fork")
    .option("--metadata <key=value>", "a label (repeatable)", collectPairs)
    .addHelpText(
      "after",
      examples(
        "B=$(cubicle ws fork $WS --name try-b)",
        "cubicle ws fork $WS --snapshot snap_01kb1m2x3y4z5a6b7c8d9e0f1g --json",
      ),
    )
    .action(async (workspaceId: string, options: ForkOptions, command: Command) => {
      const flags = flagsOf(command);
      if (options.snapshot !== undefined && options.revision !== undefined) {
        throw new CliError("give --snapshot or --revision, not both");
      }
      const revision = options.revision === undefined ? undefined : Number(options.revision);
      if (revision !== undefined && !(Number.isSafeInteger(revision) && revision >= 0)) {
        throw new CliError(`--revision takes a revision number, not ${options.revision}`);
      }
      const fork = await workspaceById(clientFor(flags), workspaceId).fork({
        ...(options.snapshot === undefined ? {} : { snapshotId: options.snapshot }),
        ...(revision === undefined ? {} : { revision }),
        ...(options.name === undefined ? {} : { name: options.name }),
        ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
      });
      if (flags.json) printJson(fork.data);
      else process.stdout.write(`${fork.id}\n`);
    });
}
