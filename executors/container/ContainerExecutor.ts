/**
 * The container executor, as the workspace object drives it: each run is one `exec` on the
 * workspace's computerd over the link's capnweb session. computerd answers only after every
 * change the command made is committed to this object, so the run's files are visible to
 * the API when the result is returned. Output travels through a capnweb target wrapping the
 * object's durable sink, awaited per piece (back-pressure).
 */
import { RpcTarget } from "capnweb";
import type { OutputSinkApi } from "../../container/wire/index.ts";
import type { ExecOutcome, ExecRequest, Executor, OutputSink, OutputStream } from "../contract.ts";
import type { ComputerLink } from "./ComputerLink.ts";

class SinkTarget extends RpcTarget implements OutputSinkApi {
  constructor(private readonly sink: OutputSink) {
    super();
  }
  write(stream: OutputStream, data: Uint8Array): Promise<void> {
    return this.sink.write(stream, data);
  }
}

export function createContainerExecutor(link: ComputerLink, options: { pathPrefix: string | null }): Executor {
  return {
    async run(request: ExecRequest, sink: OutputSink): Promise<ExecOutcome> {
      if (options.pathPrefix !== null) {
        return {
          status: "failed",
          exitCode: 126,
          error: `the container mounts the whole workspace; a credential confined to ${options.pathPrefix} cannot run it`,
        };
      }
      let computer: Awaited<ReturnType<ComputerLink["computer"]>>;
      try {
        computer = await link.computer();
      } catch (error) {
        return { status: "failed", exitCode: 125, error: `the container did not start: ${(error as Error).message}` };
      }
      const outcome = await computer.exec(
        {
          execId: request.execId,
          command: request.command ?? "",
          cwd: request.cwd,
          env: request.env,
          stdin: request.stdin,
          timeoutMs: request.timeoutMs,
          outputBytesMax: request.outputBytesMax,
          egress: request.egress,
        },
        new SinkTarget(sink),
      );
      return {
        status: outcome.status,
        exitCode: outcome.exitCode,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      };
    },

    async kill(execId: string): Promise<void> {
      const computer = await link.computer().catch(() => null);
      await computer?.kill(execId).catch(() => {});
    },
  };
}
