/**
 * GET /dashboard/workspaces/:id/runs/:execId: a run's record (the same `execObject` as
 * `GET /v1/workspaces/{id}/execs/{execId}`) and its stdout and stderr in the order they
 * were written, read page by page like `GET …/output`, up to the dashboard's output limit.
 */
import { execLimits } from "../../../../../executors/limits.ts";
import { viewEvent } from "../../../../../tenants/workspace/execs/sse.ts";
import { execObject } from "../../../routes/execShared.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { bytes, dateTime, shortId } from "../../format.ts";
import { dashboardLimits } from "../../limits.ts";
import { CopyableId } from "../../ui/CopyableId.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { statusClass } from "./browser.tsx";
import {
  apiContext,
  Breadcrumb,
  durationLabel,
  frameOf,
  hrefs,
  param,
  ScopeNotice,
  workspaceLabel,
} from "./shared.tsx";

type ExecAccess = Awaited<ReturnType<typeof execObject>>;

interface Output {
  parts: { seq: number; stream: "stdout" | "stderr"; text: string }[];
  /** True when the dashboard stopped at its limit before the stored output ended. */
  cut: boolean;
}

const lenient = new TextDecoder();

/** The stored output up to `bytesMax` bytes; a part cut in the middle of a character ends in U+FFFD. */
async function outputOf(object: ExecAccess["object"], execId: string, bytesMax: number): Promise<Output> {
  const parts: Output["parts"] = [];
  let after = 0;
  let taken = 0;
  for (;;) {
    const events = await object.execOutput(execId, after, execLimits.outputPageMax);
    if (events.length === 0) return { parts, cut: false };
    for (const event of events) {
      after = event.seq;
      if (event.stream === "exit") return { parts, cut: false };
      const room = bytesMax - taken;
      if (event.data.byteLength > room) {
        const text = lenient.decode(event.data.subarray(0, room));
        if (text !== "") parts.push({ seq: event.seq, stream: event.stream, text });
        return { parts, cut: true };
      }
      taken += event.data.byteLength;
      parts.push({ seq: event.seq, stream: event.stream, text: viewEvent(event).text });
    }
  }
}

export async function runPage(c: DashboardContext): Promise<Response> {
  const id = param(c, "id");
  const execId = param(c, "execId");
  const title = `Run ${shortId(execId)}`;
  const crumbs = [
    { label: "Workspaces", href: hrefs.list() },
    { label: await workspaceLabel(c, id), href: hrefs.browse(id) },
    { label: shortId(execId) },
  ];
  if (!hasScope(c, "exec")) {
    return c.html(
      <Layout title={title} section="workspaces" {...(await frameOf(c))}>
        <Breadcrumb crumbs={crumbs} />
        <ScopeNotice scope="exec" what="Runs" />
      </Layout>,
      403,
    );
  }
  const { object, record } = await execObject(apiContext(c), id, execId);
  const [output, frame] = await Promise.all([outputOf(object, execId, dashboardLimits.runOutputBytesMax), frameOf(c)]);
  return c.html(
    <Layout title={title} section="workspaces" {...frame}>
      <Breadcrumb crumbs={crumbs} />
      <RunFacts record={record} />
      <h2 id="output">Output</h2>
      <OutputOf id={id} record={record} output={output} />
    </Layout>,
  );
}

function RunFacts({ record }: { record: ExecAccess["record"] }) {
  return (
    <dl class="facts" data-exec-id={record.id} data-status={record.status} data-exit-code={record.exitCode ?? ""}>
      <dt>Run id</dt>
      <dd>
        <CopyableId id={record.id} noun="run" />
      </dd>
      <dt>Status</dt>
      <dd class={statusClass(record.status)}>{record.status}</dd>
      <dt>Exit code</dt>
      <dd>{record.exitCode ?? "—"}</dd>
      {record.error !== null && (
        <>
          <dt>Error</dt>
          <dd class="status-bad">{record.error}</dd>
        </>
      )}
      <dt>Executor</dt>
      <dd>{record.executor}</dd>
      <dt>Summary</dt>
      <dd>
        <code class="summary">{record.summary}</code>
      </dd>
      <dt>Started</dt>
      <dd>
        <time datetime={record.startedAt}>{dateTime(record.startedAt)}</time>
      </dd>
      <dt>Ended</dt>
      <dd>{record.endedAt === null ? "—" : <time datetime={record.endedAt}>{dateTime(record.endedAt)}</time>}</dd>
      <dt>Duration</dt>
      <dd>{durationLabel(record.durationMs)}</dd>
    </dl>
  );
}

function OutputOf({ id, record, output }: { id: string; record: ExecAccess["record"]; output: Output }) {
  return (
    <>
      {record.status === "running" && <p class="notice">Still running: reload for more output.</p>}
      {output.parts.length === 0 ? (
        <p class="muted">No output.</p>
      ) : (
        <>
          <p class="muted">
            Standard output and standard error in the order written; standard error is in red italics.
          </p>
          <pre class="run-output" data-output>
            {output.parts.map((part) => (
              <span class={part.stream} data-stream={part.stream} data-seq={part.seq}>
                {part.text}
              </span>
            ))}
          </pre>
        </>
      )}
      {output.cut && (
        <p class="notice" data-output-cut>
          Output cut at {bytes(dashboardLimits.runOutputBytesMax)}. The API has the rest:{" "}
          <code>
            GET /v1/workspaces/{id}/execs/{record.id}/output
          </code>
        </p>
      )}
      {record.truncated && (
        <p class="notice" data-output-truncated>
          The run wrote more than its output limit ({bytes(record.outputBytes)} kept); the rest was not stored.
        </p>
      )}
    </>
  );
}
