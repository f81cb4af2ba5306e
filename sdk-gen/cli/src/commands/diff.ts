/**
 * `cubicle diff <ws> [--from x] [--to y|live] [--patch]`: what changed between two versions.
 * Without `--from` it compares the newest snapshot with the live tree, as `git diff` compares
 * the last commit with the working tree. Changed paths one a line, or with `--patch` the
 * unified diff of the text files; coloured on a terminal, plain through a pipe.
 */
import { PayloadTooLargeError, type Workspace } from "@cubicle/sdk";
import type { Command } from "commander";
import { colourPatch, nameStatus, painterFor, summary } from "../diffFormat.ts";
import { CliError, clientFor, examples, flagsOf, printJson } from "../output.ts";
import { parseVersion } from "../versionRef.ts";
import { workspaceById } from "../workspace.ts";

interface DiffOptions {
  from?: string;
  to: string;
  patch?: boolean;
  path?: string;
}

export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description("what changed between two versions of a workspace: paths, or a unified diff with --patch")
    .argument("<workspace>", "the workspace id")
    .option("--from <version>", "a snapshot id or revision (default: the newest snapshot)", (v) =>
      parseVersion(v, false),
    )
    .option("--to <version>", "a snapshot id, revision or live", (v) => parseVersion(v, true), "live")
    .option("--patch", "print a unified diff of the text files")
    .option("--path <path>", "only what is at or under this file or directory, as /src")
    .addHelpText(
      "after",
      examples(
        "cubicle diff $WS                      # the newest snapshot against the live files",
        "cubicle diff $WS --from $SNAP --patch",
        "cubicle diff $WS --from $SNAP --patch --path /src   # one directory's changes",
        "cubicle diff $WS --from 12 --to 15 --json",
      ),
    )
    .action(async (workspaceId: string, options: DiffOptions, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      const from = options.from ?? (await newestSnapshot(workspace));
      const found = await workspace
        .diff(from, {
          to: options.to,
          format: options.patch ? "patch" : "json",
          ...(options.path === undefined ? {} : { path: options.path }),
        })
        .catch((error: unknown) => {
          // The server's detail names its query parameter; say it in this command's words.
          if (!(error instanceof PayloadTooLargeError)) throw error;
          throw new CliError(
            `the patch is larger than one answer carries (8 MiB): narrow it with --path <file or directory>, closer --from and --to, or leave out --patch for the changed paths (request ${error.requestId})`,
          );
        });
      if (flags.json) return printJson(found);
      const paint = painterFor(process.stdout);
      if (options.patch) process.stdout.write(colourPatch(found.patch ?? "", paint));
      else {
        process.stdout.write(nameStatus(found, paint));
        // The counts go to stderr: stdout stays one path a line for scripts.
        process.stderr.write(`${summary(found)}\n`);
      }
      if (found.truncated) {
        process.stderr.write(
          `cubicle: more paths changed than one diff lists (${found.entries.length}); narrow it with --path, or --from and --to\n`,
        );
      }
    });
}

async function newestSnapshot(workspace: Workspace): Promise<string> {
  const [newest] = (await workspace.snapshots.list({ limit: 1 }).firstPage()).items;
  if (!newest) throw new CliError("this workspace has no snapshot to compare with: give --from <revision>", 2);
  return newest.id;
}
