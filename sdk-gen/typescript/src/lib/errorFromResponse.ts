/**
 * Turns an error answer into the most specific generated class: by `code` when that code's
 * status is the answer's (a proxy in between may answer with a status of its own), else by
 * status, else the 5xx class, else `APIError`.
 */
import { codeErrors, InternalServerError, statusErrors } from "../generated/errors.gen.ts";
import { APIError, type ProblemBody } from "./errors.ts";

export function errorFromResponse(status: number, headers: Headers, body: unknown): APIError {
  const problem: ProblemBody =
    typeof body === "object" && body !== null ? (body as ProblemBody) : { detail: String(body ?? "") };
  const byCode = problem.code === undefined ? undefined : codeErrors[problem.code];
  const codeFits = byCode !== undefined && byCode.status === status;
  const ErrorClass =
    (codeFits ? byCode : undefined) ?? statusErrors[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new ErrorClass(status, problem, headers);
}
