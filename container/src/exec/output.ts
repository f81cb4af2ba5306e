/**
 * Forwards a child's stdout and stderr to the object's sink through the output pump every
 * executor shares (../../wire/outputPump.ts): small writes gathered for a moment, one call per
 * piece, and what is still queued when the command ends handed back to go with its outcome,
 * so a short command's output costs no call of its own. While the pump waits for the sink the
 * pipe is paused, so a slow sink slows the command instead of filling this process's memory.
 * Past `outputBytesMax` the rest is read and dropped, so the command never blocks on a full pipe.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Readable } from "node:stream";
import type { OutputPiece, OutputSinkApi } from "../../wire/index.ts";
import { OutputPump } from "../../wire/outputPump.ts";

export function forwardOutput(
  child: ChildProcessWithoutNullStreams,
  sink: OutputSinkApi,
  outputBytesMax: number,
  activity: () => void,
): { done: (graceMs: number) => Promise<OutputPiece[]> } {
  // A sink that failed takes no more output; the command runs on, as before the pump.
  const pump = new OutputPump(sink, outputBytesMax, () => {});

  const forward = (stream: Readable, name: "stdout" | "stderr") =>
    new Promise<void>((resolve) => {
      stream.on("data", (chunk: Buffer) => {
        activity();
        stream.pause();
        void pump
          .write(name, new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          .finally(() => stream.resume());
      });
      stream.once("close", resolve);
      stream.once("error", () => resolve());
    });

  const closed = Promise.all([forward(child.stdout, "stdout"), forward(child.stderr, "stderr")]);
  return {
    async done(graceMs) {
      // A background child may hold the pipes open past the command's exit; cut them after a grace period.
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          resolve();
        }, graceMs);
      });
      await Promise.race([closed, grace]);
      clearTimeout(timer);
      return pump.finish();
    },
  };
}
