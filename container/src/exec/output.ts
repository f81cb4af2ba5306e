/**
 * Forwards a child's stdout and stderr to the object's sink. While a `sink.write` is in
 * flight the pipe is paused, so a slow sink slows the command instead of filling this
 * process's memory. Past `outputBytesMax` the rest is read and dropped, so the command never
 * blocks on a full pipe.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Readable } from "node:stream";
import type { OutputSinkApi } from "../../wire/index.ts";

export function forwardOutput(
  child: ChildProcessWithoutNullStreams,
  sink: OutputSinkApi,
  outputBytesMax: number,
  activity: () => void,
): { done: (graceMs: number) => Promise<void> } {
  let forwardedBytes = 0;
  let sinkBroken = false;
  let writes = Promise.resolve();

  const pump = (stream: Readable, name: "stdout" | "stderr") =>
    new Promise<void>((resolve) => {
      stream.on("data", (chunk: Buffer) => {
        activity();
        const room = outputBytesMax - forwardedBytes;
        if (room <= 0 || sinkBroken) return;
        const piece = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
        forwardedBytes += piece.byteLength;
        stream.pause();
        // Writes are chained so stdout and stderr reach the sink in the order they were read.
        writes = writes
          .then(() => sink.write(name, new Uint8Array(piece)))
          .catch(() => {
            sinkBroken = true;
          })
          .finally(() => stream.resume());
      });
      stream.once("close", resolve);
      stream.once("error", () => resolve());
    });

  const closed = Promise.all([pump(child.stdout, "stdout"), pump(child.stderr, "stderr")]);
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
      await writes;
    },
  };
}
