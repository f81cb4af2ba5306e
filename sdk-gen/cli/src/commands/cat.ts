/**
 * `cubicle cat <ws> <path> [--at <version>]`: a file's bytes on stdout, as they are or as they
 * were at a snapshot or a kept revision. Bytes pass through untouched, so
 * `cubicle cat … > file` is a byte-for-byte copy.
 */
import type { Command } from "commander";
import { clientFor, examples, flagsOf, printJson } from "../output.ts";
import { parseVersion } from "../versionRef.ts";
import { workspaceById } from "../workspace.ts";

export function registerCat(program: Command): void {
  program
    .command("cat")
    .description("print a file of a workspace, now or as it was at a snapshot or revision")
    .argument("<workspace>", "the workspace id")
    .argument("<path>", "the path in the workspace, as /notes/plan.md")
    .option("--at <version>", "a snapshot id or a kept revision (live: now)", (v) => parseVersion(v, true))
    .addHelpText(
      "after",
      examples("cubicle cat $WS /notes/plan.md", "cubicle cat $WS /notes/plan.md --at $SNAP > plan-before.md"),
    )
    .action(async (workspaceId: string, path: string, options: { at?: string }, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      const bytes = await workspace.files.read(path, options.at === undefined ? {} : { at: options.at });
      if (flags.json) {
        // JSON carries text; bytes that are not UTF-8 go as base64 so nothing is lost.
        const text = utf8(bytes);
        return printJson(
          text === null
            ? { path, at: options.at ?? "live", base64: Buffer.from(bytes).toString("base64") }
            : { path, at: options.at ?? "live", text },
        );
      }
      process.stdout.write(bytes);
    });
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
