/** `cubicle usage`: this period's use of each meter against the plan, as a table or JSON. */
import type { Command } from "commander";
import { clientFor, examples, flagsOf, printJson, table } from "../output.ts";

interface QuotaMeter {
  meter: string;
  used: number;
  included: number;
  limit: number | null;
  remaining: number | null;
  resetsAt: string;
}

export function registerUsage(program: Command): void {
  program
    .command("usage")
    .description("what you used this billing period, per meter, against your plan's quotas")
    .addHelpText("after", examples("cubicle usage", "cubicle usage --json"))
    .action(async (_options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const quotas = (await clientFor(flags).quotas.get()) as { plan: string; meters: QuotaMeter[] };
      if (flags.json) return printJson(quotas);
      const rows = quotas.meters.map((m) => [
        m.meter,
        String(m.used),
        String(m.included),
        m.limit === null ? "none" : String(m.limit),
        m.remaining === null ? "-" : String(m.remaining),
      ]);
      process.stdout.write(`plan: ${quotas.plan}\n`);
      process.stdout.write(table(["METER", "USED", "INCLUDED", "LIMIT", "REMAINING"], rows));
    });
}
