/**
 * `cubicle restore <ws> --snapshot <id> | --revision <n>`: makes the live tree equal to that
 * version. The restore is itself a new revision, so the line it prints says how to undo it;
 * files already equal to the version make none, and it says so.
 */
import type { Command } from "commander";
import { CliError, clientFor, examples, flagsOf, printJson } from "../output.ts";
import { parseRevision, parseSnapshotId } from "../versionRef.ts";
import { workspaceById } from "../workspace.ts";

export function registerRestore(program: Command): void {
  program
    .command("restore")
    .description("make a workspace's files what they were at a snapshot or a kept revision (itself undoable)")
    .argument("<workspace>", "the workspace id")
    .option("--snapshot <id>", "the snapshot to go back to", parseSnapshotId)
    .option("--revision <n>", "the revision to go back to (kept for the plan's history window)", parseRevision)
    .addHelpText(
      "after",
      examples(
        "cubicle restore $WS --snapshot $SNAP",
        "cubicle restore $WS --revision 41    # undoes a restore that made revision 42",
      ),
    )
    .action(async (workspaceId: string, options: { snapshot?: string; revision?: number }, command: Command) => {
      const flags = flagsOf(command);
      if ((options.snapshot === undefined) === (options.revision === undefined)) {
        throw new CliError("give --snapshot <id> or --revision <n>, one of them", 2);
      }
      const to =
        options.snapshot === undefined ? { revision: options.revision as number } : { snapshotId: options.snapshot };
      const result = await workspaceById(clientFor(flags), workspaceId).restore(to);
      if (flags.json) return printJson(result);
      const target = options.snapshot ?? `revision ${options.revision}`;
      if (result.changedPaths === 0) {
        process.stdout.write(
          `nothing to restore: the files already are ${target}'s (still revision ${result.revision})\n`,
        );
        return;
      }
      const paths = `${result.changedPaths} path${result.changedPaths === 1 ? "" : "s"}`;
      process.stdout.write(`restored ${target}: ${paths} set back, now revision ${result.revision}\n`);
      process.stdout.write(`undo with: cubicle restore ${workspaceId} --revision ${result.revision - 1}\n`);
    });
}
