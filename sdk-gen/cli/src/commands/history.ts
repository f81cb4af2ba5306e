/**
 * `cubicle history <ws> <path>`: every kept version of what a path has named, newest first,
 * with the revision that made it and the one that ended it, when, and who (a key or a run).
 * `cubicle cat <ws> <path> --at <READ AT>` reads any of them back.
 */
import type { FileHistory } from "@cubicle/sdk";
import type { Command } from "commander";
import { clientFor, examples, flagsOf, formatBytes, printJson, table } from "../output.ts";
import { workspaceById } from "../workspace.ts";

type Version = FileHistory["versions"][number];

export function registerHistory(program: Command): void {
  program
    .command("history")
    .description("list the kept versions of a file, newest first, with who made each")
    .argument("<workspace>", "the workspace id")
    .argument("<path>", "the path in the workspace, as /notes/plan.md")
    .addHelpText(
      "after",
      examples(
        "cubicle history $WS /notes/plan.md",
        "cubicle cat $WS /notes/plan.md --at 12    # read one back: its READ AT",
      ),
    )
    .action(async (workspaceId: string, path: string, _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const found = await workspaceById(clientFor(flags), workspaceId).history(path);
      if (flags.json) return printJson(found);
      if (found.versions.length === 0) {
        process.stderr.write(`cubicle: no kept version of ${found.path}\n`);
        return;
      }
      const header = ["REVISION", "UNTIL", "TIME", "TYPE", "SIZE", "ETAG", "BY", "READ AT"];
      process.stdout.write(table(header, found.versions.map(row)));
    });
}

function row(version: Version): string[] {
  const op = version.op === "restore" && version.restoredTo ? `restore to ${version.restoredTo}` : version.op;
  const by = [version.actor, op && `(${op})`].filter(Boolean).join(" ");
  return [
    String(version.revision),
    version.until === null ? "live" : String(version.until),
    version.at ?? "",
    version.type,
    version.type === "dir" ? "-" : formatBytes(version.size),
    version.etag ?? (version.target === undefined ? "" : `→ ${version.target}`),
    by,
    version.readAt,
  ];
}
