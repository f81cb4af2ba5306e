import { describe, expect, it } from "vitest";
import { sh } from "./harness.ts";

const pointer =
  /command not found; the shell executor has bash and its utilities only: run (\S+) with the container executor/;

describe("shell guest: commands it does not have", () => {
  it("names the container executor for any command it lacks, with exit status 127", async () => {
    for (const command of ["python3 --version", "pandoc -v", "npm test", "gcc a.c", "sqlite3 db.sqlite"]) {
      const { outcome, stderr } = await sh(command);
      expect(outcome.exitCode, command).toBe(127);
      expect(stderr, command).toMatch(pointer);
      expect(stderr, command).toContain(`run ${command.split(" ")[0]} with`);
      expect(stderr, command).not.toMatch(/browser|Node\.js bundle/);
    }
  });

  it("says so inside loops and pipelines, whose output streams", async () => {
    const { stderr, stdout } = await sh("for i in 1; do echo before; python3 -c 1; done; echo x | pandoc; echo after");
    expect(stdout).toBe("before\nafter\n");
    expect(stderr.match(new RegExp(pointer, "g"))).toHaveLength(2);
  });

  it("never passes on just-bash's advice to its embedder, wherever stderr is redirected", async () => {
    for (const name of ["tar", "yq", "xan", "sqlite3", "python3", "python", "pandoc"]) {
      const { stdout, stderr } = await sh(
        `${name} --version 2>&1; echo "status $?"; ${name} 2>/dev/null || echo quiet`,
      );
      expect(stdout, name).toMatch(new RegExp(`^bash: (line 1: )?${name}: command not found\\nstatus 127\\nquiet\\n$`));
      expect(stdout + stderr, name).not.toMatch(/browser|Node\.js bundle/);
    }
  });

  it("leaves a script's own lines alone", async () => {
    expect((await sh("echo 'bash: x: command not found, or so I say' >&2")).stderr).toBe(
      "bash: x: command not found, or so I say\n",
    );
  });
});
