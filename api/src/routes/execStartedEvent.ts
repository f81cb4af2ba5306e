/**
 * The first event of an exec answered as an event stream: the run's id, which a client
 * needs to resume its output (`GET …/execs/{id}/output` with `Last-Event-ID`) and which a
 * plain `curl -N` shows nowhere else but the `X-Exec-Id` header. It carries no SSE `id`, so
 * it leaves the client's last event id alone; the SDKs skip events they do not know.
 */
const encoder = new TextEncoder();

/** With `snapshot: "before"`, the event names the snapshot taken just before the run: one restore undoes it. */
export function execStartedFrame(execId: string, workspaceId: string, snapshotId?: string): string {
  const data = snapshotId === undefined ? { id: execId, workspaceId } : { id: execId, workspaceId, snapshotId };
  return `event: exec\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `rest` with `first` in front; cancelling the result (a client gone) cancels `rest`. */
export function withFirstEvent(first: string, rest: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
    },
  });
  // A failed pipe has already errored or cancelled one side; nothing is left to report.
  rest.pipeTo(writable).catch(() => {});
  return readable;
}
