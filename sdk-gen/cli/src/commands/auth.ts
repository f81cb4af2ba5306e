/** `cubicle signup` and `cubicle login`: get a key, check it, keep it in the config file. */
import { createInterface } from "node:readline/promises";
import { Cubicle } from "@cubicle/sdk";
import type { Command } from "commander";
import { resolveCredentials, writeConfig } from "../config.ts";
import { CliError, examples, flagsOf, printJson } from "../output.ts";

export function registerAuth(program: Command): void {
  program
    .command("signup")
    .description("open an account; its API key is saved to ~/.config/cubicle/config.json (mode 0600)")
    .requiredOption("--email <email>", "the account's email (an email signs up once)")
    .option("--name <name>", "your name")
    .addHelpText("after", examples("cubicle signup --email you@example.com"))
    .action(async (options: { email: string; name?: string }, command: Command) => {
      const flags = flagsOf(command);
      const { baseUrl } = resolveCredentials(flags);
      const body = options.name === undefined ? { email: options.email } : { email: options.email, name: options.name };
      const answer = await new Cubicle({ baseUrl }).signup(body);
      const path = writeConfig({ apiKey: answer.apiKey.key, baseUrl });
      if (flags.json) printJson({ ...answer, configPath: path });
      else process.stdout.write(`Signed up ${answer.tenant.email} (${answer.tenant.id}); API key saved to ${path}\n`);
    });

  program
    .command("login")
    .description("check an API key and save it to ~/.config/cubicle/config.json (mode 0600)")
    .option("--key <key>", "the API key; without it, read from standard input (a prompt on a terminal)")
    .addHelpText("after", examples("cubicle login --key cub_…", "echo $KEY | cubicle login"))
    .action(async (options: { key?: string }, command: Command) => {
      const flags = flagsOf(command);
      const { baseUrl } = resolveCredentials(flags);
      const apiKey = (options.key ?? flags.apiKey ?? (await readKey())).trim();
      if (!apiKey) throw new CliError("no API key given", 2);
      const account = await new Cubicle({ apiKey, baseUrl }).account.get();
      const path = writeConfig({ apiKey, baseUrl });
      if (flags.json) printJson({ tenant: account, configPath: path });
      else process.stdout.write(`Logged in as ${account.email} (${account.id}); API key saved to ${path}\n`);
    });
}

/** One line from standard input: the key, typed at a prompt or piped in. */
async function readKey(): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  try {
    return process.stdin.isTTY
      ? await lines.question("API key: ")
      : ((await lines[Symbol.asyncIterator]().next()).value ?? "");
  } finally {
    lines.close();
  }
}
