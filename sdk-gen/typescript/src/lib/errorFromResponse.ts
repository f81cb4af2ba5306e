/** Turns an error answer into the most specific generated class: by `code`, else by status. */
import { codeErrors, InternalServerError, statusErrors } from "../generated/errors.gen.ts";
import { APIError, type ProblemBody } from "./errors.ts";

export function errorFromResponse(status: number, headers: Headers, body: unknown): APIError {
  const problem: ProblemBody =
    typeof body === "object" && body !== null ? (body as ProblemBody) : { detail: String(body ?? "") };
  const byCode = problem.code === undefined ? undefined : codeErrors[problem.code];
  const ErrorClass = byCode ?? statusErrors[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new ErrorClass(status, problem, headers);
}
