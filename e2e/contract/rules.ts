/**
 * The rules the server enforces that a JSON Schema cannot state, each documented where a
 * client reads it (docs/errors.md, "Rules a schema cannot state", and the operation's
 * description). A schema-valid request refused by one of these is expected; one refused
 * for any other reason is a contract defect the fuzzer reports. Keep this list short:
 * a rule that a schema can state belongs in the schema.
 */
/** A problem+json answer, as the rules (and verdict.ts) read it. */
export interface ProblemBody {
  code?: string;
  fsCode?: string;
  detail?: string;
  errors?: { in: string; pointer: string; detail: string }[];
}

export interface CrossFieldRule {
  /** The operations it applies to; `*` for all. */
  operations: string[];
  status: number;
  code: string;
  /** The POSIX code a filesystem refusal carries, when the rule is one. */
  fsCode?: string;
  /**
   * Matches the problem's `detail` or one of its `errors` (as `<pointer> <detail>`), so a
   * different refusal with the same code is not excused.
   */
  detail: RegExp;
  /** Why a schema cannot say it. */
  why: string;
}

/** Every operation that takes a workspace path somewhere. */
const PATH_OPERATIONS = [
  "headFile",
  "getFile",
  "putFile",
  "deleteFile",
  "listPath",
  "statPath",
  "mkdir",
  "move",
  "copy",
  "symlink",
  "readlink",
  "chmod",
  "chown",
  "utimes",
  "link",
  "truncate",
  "grep",
  "find",
  "batch",
  "exec",
  "publishArtifact",
  "createShare",
  "createToken",
];

export const CROSS_FIELD_RULES: CrossFieldRule[] = [
  {
    operations: ["*"],
    status: 400,
    code: "validation_failed",
    detail: /lone UTF-16 surrogate/,
    why: "JSON Schema strings are Unicode text; a lone surrogate escape is not, and no stored field takes one",
  },
  {
    operations: ["*"],
    status: 413,
    code: "payload_too_large",
    detail: /request body is larger than \d+ bytes/,
    why: "a JSON body is limited in bytes as sent; a schema bounds each field in characters",
  },
  {
    operations: ["exec"],
    status: 400,
    code: "validation_failed",
    detail: /^\/egress\/allow\/\d+ (?!must be a host name)/,
    why: "an allow-list entry must parse as a URL host (IDNA) and name a public address",
  },
  {
    operations: ["getUsage", "listUsageEvents"],
    status: 400,
    code: "validation_failed",
    detail: /`from` must be before `to`|`from` must be at most \d+ days before `to`/,
    why: "compares two fields (and `to` defaults to now)",
  },
  {
    operations: ["listUsageEvents"],
    status: 400,
    code: "validation_failed",
    detail: /`cursor` is not a cursor this API returned/,
    why: "a cursor is opaque: only the server knows which texts it issued",
  },
  {
    operations: ["createKey"],
    status: 400,
    code: "validation_failed",
    detail: /`expiresAt` must be in the future/,
    why: "compares a field with the clock",
  },
  {
    operations: ["move", "copy", "batch"],
    status: 400,
    code: "bad_request",
    fsCode: "EINVAL",
    detail: /into itself|are the same file/,
    why: "compares `to` with `from`, as the filesystem resolves them (through symlinks)",
  },
  {
    operations: ["readlink"],
    status: 400,
    code: "bad_request",
    fsCode: "EINVAL",
    detail: /not a symbolic link/,
    why: "depends on what is at the path, as readlink(2)",
  },
  {
    operations: PATH_OPERATIONS,
    status: 400,
    code: "bad_request",
    fsCode: "ELOOP",
    detail: /./,
    why: "depends on the symlinks at the path, as every POSIX call that follows them",
  },
  {
    operations: ["grep"],
    status: 400,
    code: "bad_request",
    fsCode: "EINVAL",
    detail: /regular expression/,
    why: "whether a text compiles as a regular expression is not a pattern",
  },
  {
    operations: PATH_OPERATIONS,
    status: 400,
    code: "invalid_path",
    detail: /a name is longer than \d+ bytes|path is longer than \d+ characters/,
    why: "names are limited in UTF-8 bytes and paths in UTF-16 units; a schema counts characters",
  },
  {
    operations: PATH_OPERATIONS,
    status: 400,
    code: "validation_failed",
    detail: /a name is longer than \d+ bytes|path is longer than \d+ characters/,
    why: "names are limited in UTF-8 bytes and paths in UTF-16 units; a schema counts characters",
  },
];

export function findRule(operationId: string, status: number, problem: ProblemBody | null): CrossFieldRule | null {
  if (!problem) return null;
  const texts = [problem.detail ?? "", ...(problem.errors ?? []).map((e) => `${e.pointer} ${e.detail}`)];
  return (
    CROSS_FIELD_RULES.find(
      (rule) =>
        (rule.operations.includes(operationId) || rule.operations.includes("*")) &&
        rule.status === status &&
        rule.code === problem.code &&
        (rule.fsCode === undefined || rule.fsCode === problem.fsCode) &&
        texts.some((text) => rule.detail.test(text)),
    ) ?? null
  );
}
