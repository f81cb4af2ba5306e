import { describe, expect, it } from "vitest";
import type { ExecOutcome } from "../../contract.ts";
import { guest, RecordingSink, request, sh } from "./harness.ts";
import { MemoryFs } from "./memoryFs.ts";

describe("shell guest: timeout, kill and output cap", () => {
  it("times out a busy loop with status timed_out and exit code 124", async () => {
    const started = Date.now();
    const { outcome, stderr } = await sh("while true; do :; done", { timeoutMs: 200 });
    expect(outcome).toEqual({ status: "timed_out", exitCode: 124, error: "timed out after 200 ms" });
    expect(stderr).toBe("");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("times out a sleeping script and keeps the output it printed before", async () => {
    const { outcome, stdout } = await sh("echo before; sleep 30; echo after", { timeoutMs: 300 });
    expect(outcome).toMatchObject({ status: "timed_out", exitCode: 124 });
    expect(stdout).toBe("before\n");
  });

  it("is killed and ends as cancelled with 137, keeping earlier output", async () => {
    const shell = guest();
    const sink = new RecordingSink();
    const exec = request("echo started; while true; do sleep 1; done", { timeoutMs: 30_000 });
    const running = shell.run(exec, sink, new MemoryFs());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killedAt = Date.now();
    await shell.kill(exec.execId);
    const outcome = await running;
    expect(outcome).toEqual({ status: "cancelled", exitCode: 137, error: "killed" });
    expect(Date.now() - killedAt).toBeLessThan(1_000);
    expect(sink.text("stdout")).toBe("started\n");
  });

  it("kills one run and leaves another in the same workspace running", async () => {
    const shell = guest("two-runs");
    const [slow, other] = [request("sleep 5", { timeoutMs: 30_000 }), request("sleep 0.3; echo other")];
    const otherSink = new RecordingSink();
    const running = [shell.run(slow, new RecordingSink(), new MemoryFs()), shell.run(other, otherSink, new MemoryFs())];
    await new Promise((resolve) => setTimeout(resolve, 100));
    await shell.kill(slow.execId);
    expect(await running[0]).toMatchObject({ status: "cancelled", exitCode: 137 });
    expect(otherSink.end((await running[1]) as ExecOutcome)).toEqual({ status: "completed", exitCode: 0 });
    expect(otherSink.text("stdout")).toBe("other\n");
  });

  it("stops a run whose sink fails", async () => {
    class FailingSink extends RecordingSink {
      override async write(): Promise<void> {
        throw new Error("sink gone");
      }
    }
    const outcome = await guest().run(
      request("echo one; sleep 0.2; echo two > two.txt"),
      new FailingSink(),
      new MemoryFs(),
    );
    expect(outcome).toMatchObject({ status: "failed", exitCode: 1 });
    expect(outcome.error).toContain("sink gone");
  });

  it("ends on time when a workspace call never answers", async () => {
    class HangingFs extends MemoryFs {
      override readFile(): never {
        return new Promise(() => {}) as never;
      }
      override writeFile(): never {
        return new Promise(() => {}) as never;
      }
    }
    const run = (command: string) =>
      guest().run(request(command, { timeoutMs: 200 }), new RecordingSink(), new HangingFs());
    // A command's call is abandoned by just-bash itself when the run is aborted…
    expect(await run("cat a.txt")).toEqual({ status: "timed_out", exitCode: 124, error: "timed out after 200 ms" });
    // …the shell's own (opening a redirection target) is waited for stopGraceMs, then the run is given up on.
    const started = Date.now();
    expect(await run("echo x > a.txt")).toEqual({
      status: "timed_out",
      exitCode: 124,
      error: "timed out after 200 ms; the shell did not stop within 2000 ms",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_200);
  });

  it("ignores a kill for a run it does not know", async () => {
    await expect(guest().kill("ex_unknown")).resolves.toBeUndefined();
  });

  it("stops writing at outputBytesMax and lets the run finish", async () => {
    const { outcome, sink, fs } = await sh("for i in $(seq 1 2000); do echo line $i; done; echo done >&2; touch end", {
      outputBytesMax: 1000,
    });
    expect(outcome).toEqual({ status: "completed", exitCode: 0 });
    expect(fs.nodes.has("/end")).toBe(true);
    expect(sink.bytes("stdout").length + sink.bytes("stderr").length).toBe(1000);
    expect(sink.text("stderr")).toBe("");
  });

  it("caps the output of one large command the same way", async () => {
    const { outcome, sink } = await sh("seq 1 100000 | cat", { outputBytesMax: 1000 });
    expect(outcome).toEqual({ status: "completed", exitCode: 0 });
    expect(sink.text("stdout")).toBe((await sh("seq 1 100000")).stdout.slice(0, 1000));
  });

  it("does not count output that never reaches the sink", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template.
    const { outcome, stdout } = await sh("x=$(seq 1 10000); seq 1 10000 > big.txt; echo ${#x}", {
      outputBytesMax: 100,
    });
    expect(outcome).toEqual({ status: "completed", exitCode: 0 });
    expect(stdout).toBe("48893\n");
  });

  it("reports a broken just-bash limit as the error", async () => {
    const { outcome, stderr } = await sh("while true; do :; done", { timeoutMs: 60_000 });
    expect(outcome).toEqual({
      status: "failed",
      exitCode: 126,
      error: "shell limit: too many commands executed (>100000)",
    });
    expect(stderr).toBe("bash: too many commands executed (>100000)\n");
  });
});
