/**
 * `cubicle snapshot create|ls|info|rm <ws>`: a workspace's snapshots. A snapshot pins a
 * revision without copying a byte; `cubicle restore` and `cubicle diff` take its id.
 */
import type { Snapshot } from "@cubicle/sdk";
import type { Command } from "commander";
import { clientFor, examples, flagsOf, formatBytes, printJson, table } from "../output.ts";
import { workspaceById } from "../workspace.ts";

export function registerSnapshot(program: Command): void {
  const snapshot = program
    .command("snapshot")
    .description("take, list, inspect and delete snapshots of a workspace (no byte is copied)")
    .addHelpText(
      "after",
      examples("SNAP=$(cubicle snapshot create $WS --name before-refactor)", "cubicle snapshot ls $WS"),
    );

  snapshot
    .command("create")
    .description("pin the workspace's current revision and print the snapshot's id")
    .argument("<workspace>", "the workspace id")
    .option("--name <name>", "a name to tell it apart")
    .option("--description <text>", "what it is for")
    .addHelpText("after", examples(`SNAP=$(cubicle snapshot create $WS --name before-refactor)`))
    .action(async (workspaceId: string, options: { name?: string; description?: string }, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      const taken = await workspace.snapshots.create({
        ...(options.name === undefined ? {} : { name: options.name }),
        ...(options.description === undefined ? {} : { description: options.description }),
      });
      if (flags.json) printJson(taken);
      else process.stdout.write(`${taken.id}\n`);
    });

  snapshot
    .command("ls")
    .description("list a workspace's snapshots, newest first")
    .argument("<workspace>", "the workspace id")
    .addHelpText("after", examples("cubicle snapshot ls $WS", "cubicle snapshot ls $WS --json"))
    .action(async (workspaceId: string, _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      const all = await workspace.snapshots.list({ limit: 100 }).toArray();
      if (flags.json) return printJson(all);
      const rows = all.map((s) => [
        s.id,
        s.name ?? "",
        String(s.revision),
        String(s.fileCount),
        formatBytes(s.sizeBytes),
        s.createdAt,
        s.description ?? "",
      ]);
      process.stdout.write(table(["ID", "NAME", "REVISION", "FILES", "SIZE", "CREATED", "DESCRIPTION"], rows));
    });

  snapshot
    .command("info")
    .description("show one snapshot")
    .argument("<workspace>", "the workspace id")
    .argument("<snapshot>", "the snapshot id")
    .addHelpText("after", examples("cubicle snapshot info $WS $SNAP"))
    .action(async (workspaceId: string, snapshotId: string, _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const found = await workspaceById(clientFor(flags), workspaceId).snapshots.get(snapshotId);
      if (flags.json) return printJson(found);
      process.stdout.write(facts(found));
    });

  snapshot
    .command("rm")
    .description("delete snapshots; what only they kept is freed within a minute")
    .argument("<workspace>", "the workspace id")
    .argument("<snapshot...>", "snapshot ids")
    .addHelpText("after", examples("cubicle snapshot rm $WS $SNAP"))
    .action(async (workspaceId: string, ids: string[], _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const workspace = workspaceById(clientFor(flags), workspaceId);
      for (const id of ids) await workspace.snapshots.delete(id);
      if (flags.json) printJson({ deleted: ids });
      else process.stdout.write(ids.map((id) => `deleted ${id}\n`).join(""));
    });
}

function facts(s: Snapshot): string {
  const rows = [
    ["id", s.id],
    ["name", s.name ?? ""],
    ["revision", String(s.revision)],
    ["files", String(s.fileCount)],
    ["size", formatBytes(s.sizeBytes)],
    ["created", s.createdAt],
    ["by", s.actor ?? ""],
    ["description", s.description ?? ""],
  ];
  return `${rows.map(([k, v]) => `${k?.padEnd(12)}${v}`.trimEnd()).join("\n")}\n`;
}
