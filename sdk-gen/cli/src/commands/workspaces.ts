/** `cubicle ws create|ls|rm|info`. */
import type { WorkspaceData } from "@cubicle/sdk";
import type { Command } from "commander";
import { clientFor, collectPairs, examples, flagsOf, formatBytes, printJson, table } from "../output.ts";

export function registerWorkspaces(program: Command): void {
  const ws = program
    .command("ws")
    .description("create, list, inspect and delete workspaces")
    .addHelpText("after", examples("cubicle ws create --name demo", "cubicle ws ls"));

  ws.command("create")
    .description("create a workspace and print its id")
    .option("--name <name>", "a name to tell it apart")
    .option("--metadata <key=value>", "a label (repeatable)", collectPairs)
    .addHelpText("after", examples("WS=$(cubicle ws create --name demo --metadata project=docs)"))
    .action(async (options: { name?: string; metadata?: Record<string, string> }, command: Command) => {
      const flags = flagsOf(command);
      const body = {
        ...(options.name === undefined ? {} : { name: options.name }),
        ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
      };
      const workspace = await clientFor(flags).workspaces.create(body);
      if (flags.json) printJson(workspace.data);
      else process.stdout.write(`${workspace.id}\n`);
    });

  ws.command("ls")
    .description("list your workspaces, oldest first")
    .addHelpText("after", examples("cubicle ws ls", "cubicle ws ls --json"))
    .action(async (_options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const all: WorkspaceData[] = [];
      for await (const workspace of clientFor(flags).workspaces.list({ limit: 100 })) all.push(workspace.data);
      if (flags.json) return printJson(all);
      const rows = all.map((w) => [w.id, w.name ?? "", String(w.fileCount), formatBytes(w.sizeBytes), w.createdAt]);
      process.stdout.write(table(["ID", "NAME", "FILES", "SIZE", "CREATED"], rows));
    });

  ws.command("info")
    .description("show one workspace")
    .argument("<workspace>", "the workspace id")
    .addHelpText("after", examples("cubicle ws info ws_01kb1m2x3y4z5a6b7c8d9e0f1g"))
    .action(async (workspaceId: string, _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const { data } = await clientFor(flags).workspaces.get(workspaceId);
      if (flags.json) return printJson(data);
      const labels = Object.entries(data.metadata).map(([k, v]) => `${k}=${v}`);
      const rows = [
        ["id", data.id],
        ["name", data.name ?? ""],
        ["files", String(data.fileCount)],
        ["size", formatBytes(data.sizeBytes)],
        ["created", data.createdAt],
        ["metadata", labels.join(" ")],
      ];
      process.stdout.write(`${rows.map(([k, v]) => `${k?.padEnd(9)}${v}`.trimEnd()).join("\n")}\n`);
    });

  ws.command("rm")
    .description("delete workspaces with every file in them")
    .argument("<workspace...>", "workspace ids")
    .addHelpText("after", examples("cubicle ws rm ws_01kb1m2x3y4z5a6b7c8d9e0f1g"))
    .action(async (ids: string[], _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const client = clientFor(flags);
      for (const id of ids) await client.workspaces.delete(id);
      if (flags.json) printJson({ deleted: ids });
      else process.stdout.write(ids.map((id) => `deleted ${id}\n`).join(""));
    });
}
