/** The `cubicle` command tree (commander), with the global flags every command reads. */
import { Command } from "commander";
import { registerAuth } from "./commands/auth.ts";
import { registerCat } from "./commands/cat.ts";
import { registerCp } from "./commands/cp.ts";
import { registerDiff } from "./commands/diff.ts";
import { registerExec } from "./commands/exec.ts";
import { registerFork } from "./commands/fork.ts";
import { registerHistory } from "./commands/history.ts";
import { registerRestore } from "./commands/restore.ts";
import { registerShare } from "./commands/share.ts";
import { registerShell } from "./commands/shell.ts";
import { registerSnapshot } from "./commands/snapshot.ts";
import { registerUsage } from "./commands/usage.ts";
import { registerWorkspaces } from "./commands/workspaces.ts";
import { examples } from "./output.ts";

export const VERSION = "0.1.0";

export function program(): Command {
  const root = new Command("cubicle")
    .description("Cubicle from the command line: persistent workspaces, commands over them, files in and out.")
    .version(VERSION)
    .option("--json", "print results as JSON")
    .option("--api-key <key>", "the API key (default: CUBICLE_API_KEY, then the saved login)")
    .option(
      "--base-url <url>",
      "the API's address (default: CUBICLE_BASE_URL, then the saved login, then http://127.0.0.1:8787)",
    )
    .showHelpAfterError()
    .addHelpText(
      "after",
      examples(
        "cubicle signup --email you@example.com",
        "WS=$(cubicle ws create --name demo)",
        "cubicle exec $WS -- echo hello",
        "cubicle cp ./src ws:$WS:/src",
        "cubicle shell $WS",
      ),
    );
  registerAuth(root);
  registerWorkspaces(root);
  registerFork(root);
  registerExec(root);
  registerShell(root);
  registerCp(root);
  registerShare(root);
  registerUsage(root);
  // The time machine (docs/vfs.md, "Versions").
  registerSnapshot(root);
  registerRestore(root);
  registerDiff(root);
  registerHistory(root);
  registerCat(root);
  return root;
}
