/**
 * What the contract promises about one answer, checked: no 5xx; a status the operation
 * documents; a media type documented for that status; a JSON body that validates against
 * its schema; and a schema-valid request refused (400, 413) only for a rule the documents
 * name as one a schema cannot state (rules.ts). Returns the broken promise, or null.
 */
import { findRule, type ProblemBody } from "./rules.ts";
import type { Operation } from "./spec.ts";
import type { Validator } from "./validator.ts";

export interface Answer {
  status: number;
  contentType: string;
  /** The `Retry-After` header, when the answer has one. */
  retryAfter: string | null;
  text: string;
}

/** Refusals that say "your request is wrong", as opposed to "not now" or "not found". */
const REQUEST_REFUSALS = new Set([400, 413, 415, 422]);

export function verdict(
  validator: Validator,
  operation: Operation,
  answer: Answer,
  schemaProblems: string | null,
): string | null {
  const documented = operation.responses.get(answer.status);
  // The one 5xx that is not a fault: an executor still being set up, documented for the
  // operation and saying when to come back (the container image builds at first start).
  const notYet = answer.status === 503 && documented !== undefined && answer.retryAfter !== null;
  if (answer.status >= 500 && !notYet) return `server error ${answer.status}`;
  if (!documented) {
    return `status ${answer.status} is not documented (documented: ${[...operation.responses.keys()].join(", ")})`;
  }
  const bodyProblem = checkBody(validator, operation, answer, documented);
  if (bodyProblem) return bodyProblem;
  if (schemaProblems === null && REQUEST_REFUSALS.has(answer.status)) {
    const problem = parseProblem(answer.text);
    const rule = findRule(operation.operationId, answer.status, problem);
    if (!rule)
      return `a schema-valid request was refused ${answer.status}: ${problem?.detail ?? answer.text.slice(0, 200)}`;
  }
  return null;
}

function checkBody(
  validator: Validator,
  operation: Operation,
  answer: Answer,
  documented: Map<string, unknown>,
): string | null {
  const mediaType = answer.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (operation.method === "HEAD" || answer.status === 204 || answer.status === 304) {
    return answer.text === "" ? null : `status ${answer.status} came with a body`;
  }
  if (documented.size === 0)
    return answer.text === "" ? null : `status ${answer.status} documents no body but one came`;
  if (!documented.has(mediaType)) {
    return `media type ${mediaType || "(none)"} is not documented for ${answer.status} (documented: ${[...documented.keys()].join(", ")})`;
  }
  const schema = documented.get(mediaType);
  if (!schema || !mediaType.endsWith("json")) return null;
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    return `the ${mediaType} body is not JSON: ${answer.text.slice(0, 200)}`;
  }
  const problems = validator.problems(schema as Record<string, unknown>, value);
  return problems ? `the body does not match its schema: ${problems}` : null;
}

function parseProblem(text: string): ProblemBody | null {
  try {
    return JSON.parse(text) as ProblemBody;
  } catch {
    return null;
  }
}
