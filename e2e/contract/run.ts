/**
 * One fuzzing session: requests drawn from every operation of openapi/openapi.json, sent to
 * a running platform, each answer held to the contract (verdict.ts). Seeded: the same seed
 * and run count against a fresh platform draw the same requests, and a failure names the
 * seed, fast-check's shrink path and the smallest failing request it found.
 */
import fc from "fast-check";
import { clientAddress } from "../platform.ts";
import { answerToHeadersAlone, bodyBytes, JSON_BODY_BYTES_MAX } from "./earlyAnswer.ts";
import { createFixture, type Fixture } from "./fixture.ts";
import { DISPOSABLE, hintsFor } from "./hints.ts";
import { type Draw, drawFor, schemaProblems, toWire, type WireRequest } from "./requests.ts";
import { loadSpec, type Spec } from "./spec.ts";
import { createValidator, type Validator } from "./validator.ts";
import { type Answer, verdict } from "./verdict.ts";

export interface FuzzOptions {
  url: string;
  seed: number;
  runs: number;
  /** Only these operations (by operationId); all when empty. */
  only?: string[];
  log?: (line: string) => void;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  sent: number;
  /** Draws HTTP cannot carry (see toWire) or over a budget; not sent. */
  skipped: number;
  schemaValid: number;
  /** Schema-invalid requests the server accepted (2xx): the schema is stricter than the server there. */
  acceptedInvalid: { operationId: string; problems: string }[];
  statuses: Record<string, number>;
  /** Requests sent again after their connection was lost before any answer (see send()). */
  transportRetries: number;
  /** Bodies over the JSON limit whose early 413 fetch could not read, asked again by headers (send()). */
  earlyAnswers: number;
  /** Time spent making the fixture, before the first case. */
  fixtureMs: number;
  /** Time spent waiting for answers, per operation. */
  waitMs: Record<string, number>;
  /** The contract broken, with the smallest request fast-check found; null when all held. */
  failure: string | null;
  durationMs: number;
}

/** Answers slower than this are a failure in themselves: no operation should hang. */
const ANSWER_TIMEOUT_MS = 20_000;
/** Signups per session: they are rate limited per client address, which other test files share. */
const SIGNUPS_MAX = 3;
/** Cases between restoring the fixture's files, which fuzzed moves and deletes wear away. */
const RESTORE_EVERY = 40;

export async function fuzzContract(options: FuzzOptions): Promise<FuzzReport> {
  const startedMs = Date.now();
  const spec = loadSpec();
  const validator = createValidator(spec);
  const fixture = await createFixture(options.url);
  const fixtureMs = Date.now() - startedMs;
  const operations = spec.operations.filter((op) => !options.only?.length || options.only.includes(op.operationId));
  const arbitrary = fc.oneof(...operations.map((op) => drawFor(spec, op, hintsFor(op.operationId, fixture))));
  const report: FuzzReport = {
    seed: options.seed,
    cases: 0,
    sent: 0,
    skipped: 0,
    schemaValid: 0,
    acceptedInvalid: [],
    statuses: {},
    fixtureMs,
    transportRetries: 0,
    earlyAnswers: 0,
    waitMs: {},
    failure: null,
    durationMs: 0,
  };
  let signups = 0;
  let smallest: string | null = null;
  const property = fc.asyncProperty(arbitrary, async (draw) => {
    report.cases++;
    if (report.cases % RESTORE_EVERY === 0) await fixture.restoreFiles();
    const wire = toWire(await withDisposables(draw, fixture), (v) => v);
    if (wire === null) {
      report.skipped++;
      return;
    }
    const problems = schemaProblems(spec, validator, draw, wire);
    if (draw.operation.operationId === "signup" && signups >= SIGNUPS_MAX) {
      report.skipped++;
      return;
    }
    const sentMs = Date.now();
    let answer = await send(fixture, draw, wire, report);
    let sent: { draw: Draw; wire: WireRequest; problems: string | null } = {
      draw: { ...draw, twice: null },
      wire,
      problems,
    };
    if (draw.twice && answer.status !== 0 && verdict(validator, draw.operation, answer, problems) === null) {
      const again = { ...draw, body: draw.twice.body };
      const wireAgain = toWire(again, (v) => v) as WireRequest;
      sent = { draw: again, wire: wireAgain, problems: schemaProblems(spec, validator, again, wireAgain) };
      answer = await send(fixture, again, wireAgain, report);
    }
    const { operationId } = draw.operation;
    if (operationId === "signup" && answer.status === 201) signups++;
    report.waitMs[operationId] = (report.waitMs[operationId] ?? 0) + Date.now() - sentMs;
    report.sent++;
    if (sent.problems === null) report.schemaValid++;
    const statusKey = `${operationId} ${answer.status}`;
    report.statuses[statusKey] = (report.statuses[statusKey] ?? 0) + 1;
    if (sent.problems !== null && answer.status < 300 && report.acceptedInvalid.length < 50) {
      report.acceptedInvalid.push({ operationId, problems: sent.problems });
    }
    const broken = answer.status === 0 ? answer.text : verdict(validator, draw.operation, answer, sent.problems);
    if (broken) {
      smallest = describe(sent.draw, sent.wire, answer, sent.problems, broken);
      throw new Error(broken);
    }
  });
  const result = await fc.check(property, { seed: options.seed, numRuns: options.runs });
  report.durationMs = Date.now() - startedMs;
  if (result.failed) {
    report.failure = [
      `contract broken (seed ${result.seed}, path "${result.counterexamplePath}"; rerun with CUBICLE_FUZZ_SEED=${result.seed}):`,
      smallest ?? String(result.errorInstance),
    ].join("\n");
  }
  options.log?.(summary(report));
  return report;
}

/** Replaces `$disposable:<kind>` placeholders with fresh ids, made now. */
async function withDisposables(draw: Draw, fixture: Fixture): Promise<Draw> {
  const params = { ...draw.params };
  for (const [name, value] of Object.entries(params)) {
    const kind = typeof value === "string" ? DISPOSABLE.exec(value)?.[1] : undefined;
    if (kind) params[name] = await fixture.disposable(kind as "workspace" | "key" | "share");
  }
  return { ...draw, params };
}

/**
 * The answer to a request. A body over the JSON limit is answered (413) before it is read,
 * which fetch cannot show: such a request is asked again with its headers alone
 * (earlyAnswer.ts). Any other request whose connection is lost before an answer is sent
 * once more and counted, so a platform that starts dropping connections shows.
 */
async function send(fixture: Fixture, draw: Draw, wire: WireRequest, report: FuzzReport): Promise<Answer> {
  const answer = await sendOnce(fixture, draw, wire);
  if (answer.status !== 0 || !/EPIPE|ECONNRESET|UND_ERR_SOCKET/.test(answer.text)) return answer;
  if (bodyBytes(wire) > JSON_BODY_BYTES_MAX) {
    report.earlyAnswers++;
    return answerToHeadersAlone(fixture.url, wire, headersFor(fixture, draw, wire));
  }
  report.transportRetries++;
  console.log(`  lost connection (${answer.text}): ${wire.method} ${wire.target.slice(0, 120)}; sending again`);
  return sendOnce(fixture, draw, wire);
}

function headersFor(fixture: Fixture, draw: Draw, wire: WireRequest): Record<string, string> {
  const headers: Record<string, string> = { ...wire.headers };
  if (draw.operation.authenticated) headers.authorization = `Bearer ${fixture.credentials[draw.credential]}`;
  // Signups are limited per client address; a fuzzed one should not spend anyone else's.
  if (draw.operation.operationId === "signup") headers["cf-connecting-ip"] = clientAddress();
  return headers;
}

async function sendOnce(fixture: Fixture, draw: Draw, wire: WireRequest): Promise<Answer> {
  const headers = headersFor(fixture, draw, wire);
  try {
    const response = await fetch(`${fixture.url}${wire.target}`, {
      method: wire.method,
      headers,
      body: wire.body,
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    return {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      retryAfter: response.headers.get("retry-after"),
      text: await response.text(),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause ? ` (${cause.code ?? cause.message})` : "";
    return { status: 0, contentType: "", retryAfter: null, text: `no answer: ${(error as Error).message}${why}` };
  }
}

function describe(draw: Draw, wire: WireRequest, answer: Answer, problems: string | null, broken: string): string {
  const body =
    wire.body === null ? "" : typeof wire.body === "string" ? wire.body.slice(0, 2_000) : `<${wire.body.length} bytes>`;
  return [
    `  ${broken}`,
    `  operation: ${draw.operation.operationId} (${draw.aim} draw; ${problems === null ? "schema-valid" : `schema-invalid: ${problems}`})`,
    `  sent as:   ${draw.credential}${draw.twice ? ", twice with the same Idempotency-Key (this is the second answer)" : ""}${draw.accept ? `, accepting ${draw.accept}` : ""}`,
    `  request:   ${wire.method} ${wire.target}`,
    ...Object.entries(wire.headers).map(([name, value]) => `             ${name}: ${value}`),
    body ? `             ${body}` : "",
    `  answer:    ${answer.status} ${answer.contentType}`,
    `             ${answer.text.slice(0, 2_000)}`,
  ]
    .filter(Boolean)
    .join("\n");
}

/** Schema-invalid requests that were accepted, counted by operation and reason. */
function acceptedInvalidLines(report: FuzzReport): string {
  if (report.acceptedInvalid.length === 0) return "";
  const counts = new Map<string, number>();
  for (const { operationId, problems } of report.acceptedInvalid) {
    const line = `${operationId}: ${problems}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  const lines = [...counts].map(([line, count]) => `    ${count}× ${line}`);
  return [`  schema-invalid but accepted (the document is stricter there):`, ...lines].join("\n");
}

function summary(report: FuzzReport): string {
  const byOperation = new Map<string, string[]>();
  for (const [key, count] of Object.entries(report.statuses).sort()) {
    const [op, status] = key.split(" ");
    byOperation.set(op as string, [...(byOperation.get(op as string) ?? []), `${status}×${count}`]);
  }
  const slowest = Object.entries(report.waitMs)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 5)
    .map(([op, ms]) => `${op} ${ms} ms`);
  return [
    `contract fuzz: seed ${report.seed}, ${report.cases} cases, ${report.sent} sent (${report.schemaValid} schema-valid), ${report.skipped} skipped, ${report.durationMs} ms`,
    ...[...byOperation].map(([op, statuses]) => `  ${op}: ${statuses.join(" ")}`),
    `  transport retries: ${report.transportRetries}; early answers read by headers: ${report.earlyAnswers}; fixture ${report.fixtureMs} ms; waiting for answers ${Object.values(report.waitMs).reduce((a, b) => a + b, 0)} ms, most for ${slowest.join(", ")}`,
    acceptedInvalidLines(report),
    report.failure ?? "  contract held",
  ]
    .filter(Boolean)
    .join("\n");
}

export type { Spec, Validator };
