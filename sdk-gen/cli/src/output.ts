/** What every command shares: its global flags, the SDK client they make, and how results and errors are printed. */
import { APIConnectionError, APIError, Cubicle } from "@cubicle/sdk";
import type { Command } from "commander";
import { resolveCredentials } from "./config.ts";

export interface GlobalFlags {
  json?: boolean;
  apiKey?: string;
  baseUrl?: string;
}

/** An error with the message the user sees and the exit status the CLI ends with. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function flagsOf(command: Command): GlobalFlags {
  return command.optsWithGlobals<GlobalFlags>();
}

/** A client with the resolved key; refuses clearly when there is none. */
export function clientFor(flags: GlobalFlags): Cubicle {
  const { apiKey, baseUrl } = resolveCredentials(flags);
  if (!apiKey) {
    throw new CliError("not logged in: run `cubicle login` or `cubicle signup`, or set CUBICLE_API_KEY");
  }
  return new Cubicle({ apiKey, baseUrl });
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Rows under a header, each column as wide as its widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Prints an error the way a user can act on it, and answers the exit status. */
export function reportError(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(`cubicle: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof APIError) {
    const what = error.detail ?? error.title ?? error.message;
    const request = error.requestId ? ` (request ${error.requestId})` : "";
    process.stderr.write(`cubicle: ${error.status} ${error.code ?? "error"}: ${what}${request}\n`);
    return 1;
  }
  if (error instanceof APIConnectionError) {
    process.stderr.write(
      `cubicle: cannot reach the API: ${error.message}; is the server running, and CUBICLE_BASE_URL right?\n`,
    );
    return 1;
  }
  process.stderr.write(`cubicle: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

/** `--env NAME=value` and `--metadata key=value`, repeatable. */
export function collectPairs(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf("=");
  if (at <= 0) throw new CliError(`expected NAME=value, got ${value}`, 2);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** Help text that ends with examples, as every command's does. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;
}
