/**
 * The path rules of paths.ts as regular expressions, for the API's OpenAPI document: a
 * client (and its generated SDK) can check a path before sending it and get the answer the
 * server would give. `normalizePath` stays the one place that enforces them;
 * pathPatterns.test.ts holds the two to the same answers. The patterns use no lookaround,
 * so JSON Schema validators and generators read them as the server's JavaScript does.
 *
 * One rule is not here: a name's limit is 255 UTF-8 bytes, and a pattern can only count
 * characters (255 of them, which a name of multi-byte characters may exceed in bytes).
 */
import { workspaceLimits } from "./limits.ts";

const CONTROL = "\\u0000-\\u001f\\u007f";
/** Any character a path name may hold. */
const CHAR = `[^/${CONTROL}]`;
const NAME_MAX = workspaceLimits.nameLengthMax;
/**
 * A name that is neither `.` nor `..`: it starts with a character other than a dot, or
 * with one dot and then such a character, or with two dots and anything after them.
 */
const NAME = `(?:[^/.${CONTROL}]${CHAR}{0,${NAME_MAX - 1}}|\\.[^/.${CONTROL}]${CHAR}{0,${NAME_MAX - 2}}|\\.\\.${CHAR}{1,${NAME_MAX - 2}})`;
/** A segment: a name, or `.`, which normalisation drops. */
const SEGMENT = `(?:\\.|${NAME})`;

export const pathPatterns = {
  /** Any workspace path, the root included: `src/main.ts`, `/src/`, `/`, `` (the root). */
  any: `^/?(?:${SEGMENT}(?:/${SEGMENT})*/?)?$`,
  /** A path that names something below the root (at least one name that is not `.`). */
  belowRoot: `^/?(?:\\./)*${NAME}(?:/${SEGMENT})*/?$`,
  /** A directory an executor may start in: `/workspace` or `/tmp`, or below either. */
  execCwd: `^/?(?:\\./)*(?:workspace|tmp)(?:/${SEGMENT})*/?$`,
  /** A symlink target: anything without NUL (`..` is allowed; resolution stops at the root). */
  linkTarget: "^[^\\u0000]*$",
} as const;
