/**
 * The output computerd hands back with a command's outcome (its tail: what the command wrote
 * last, container/wire/outputPump.ts) reaches the run's result after what the sink took;
 * computerd cannot run inside workerd, so a twin of its `exec` answers.
 */
import { describe, expect, it } from "vitest";
import type { ContainerExecOutcome } from "../../container/wire/index.ts";
import type { ExecRequest, OutputSink } from "../contract.ts";
import type { ComputerLink } from "./ComputerLink.ts";
import { createContainerExecutor } from "./ContainerExecutor.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

function answering(outcome: Partial<ContainerExecOutcome>, streamed: string) {
  const computer = {
    exec: async (_request: unknown, sink: OutputSink): Promise<ContainerExecOutcome> => {
      await sink.write("stdout", bytes(streamed));
      return { status: "completed", exitCode: 0, revision: 1, durationMs: 5, egressBytes: 0, ...outcome };
    },
    kill: async () => {},
  };
  return { computer: async () => computer } as unknown as ComputerLink;
}

const request = (outputBytesMax = 1 << 20): ExecRequest => ({
  execId: "ex_tail",
  command: "echo",
  cwd: "/workspace",
  env: {},
  stdin: new Uint8Array(),
  timeoutMs: 10_000,
  outputBytesMax,
  egress: false,
});

const options = { pathPrefix: null, revision: () => 0, egress: null };

describe("container run output", () => {
  it("keeps the tail computerd answered with, in order, after what the sink took", async () => {
    const sunk: string[] = [];
    const tail = [
      { stream: "stderr" as const, data: bytes("warn\n") },
      { stream: "stdout" as const, data: bytes("done\n") },
    ];
    const outcome = await createContainerExecutor(answering({ tail }, "start\n"), options).run(request(), {
      write: async (_stream, data) => {
        sunk.push(new TextDecoder().decode(data));
      },
    });
    expect(sunk).toEqual(["start\n"]);
    expect(outcome.tail?.map((p) => [p.stream, new TextDecoder().decode(p.data)])).toEqual([
      ["stderr", "warn\n"],
      ["stdout", "done\n"],
    ]);
  });

  it("keeps only well-formed pieces of it, within the run's output bytes", async () => {
    const tail = [
      { stream: "stdout", data: bytes("ok\n") },
      { stream: "stdin", data: bytes("not a stream\n") },
      { stream: "stdout", data: "not bytes" },
      null,
      { stream: "stdout", data: bytes("x".repeat(64)) },
    ] as unknown as ContainerExecOutcome["tail"];
    const outcome = await createContainerExecutor(answering({ tail }, ""), options).run(request(16), {
      write: async () => {},
    });
    expect(outcome.tail?.map((p) => new TextDecoder().decode(p.data))).toEqual(["ok\n"]);
  });
});
