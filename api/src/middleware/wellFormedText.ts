import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
/** `\uD800` to `\uDFFF` as a JSON escape: the only spelling of a surrogate in JSON text. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * Refuses a JSON body holding a lone UTF-16 surrogate (`"\ud800"`) in any string, key or
 * value, with 400 `validation_failed` pointing at it. Such a string is not Unicode text:
 * stored in D1 or SQLite it becomes invalid UTF-8 that a reader then fails on. JSON bodies
 * are the only way one arrives (URLs, headers and forms decode bytes as UTF-8, which cannot
 * hold one), and workspace paths are refused by `normalizePath` wherever they come from,
 * so this one check covers every stored string of every route, present and future.
 *
 * Hono keeps the body's text for the route's validator; a body that is not JSON is left for
 * the validator to refuse. `except` names requests whose body is not JSON text whatever its
 * Content-Type says (a file upload's bytes): reading them here would consume the stream the
 * route reads, and decode bytes as text.
 */
export function wellFormedText(options: { except?: (c: AppContext) => boolean } = {}): MiddlewareHandler<AppEnv> {
  return async function wellFormedTextMiddleware(c, next) {
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "") || options.except?.(c)) return next();
    // A lone surrogate can only arrive as a `\uD800`-style escape (UTF-8 bytes cannot hold
    // one), so a body without a surrogate escape is passed on after one scan of its text.
    const pointer = await loneSurrogateIn(c.req.text());
    if (pointer !== null) {
      const detail = "contains a lone UTF-16 surrogate; text must be well-formed Unicode";
      throw new ApiError("validation_failed", `invalid request: body ${pointer || "/"} ${detail}`, {
        errors: [{ in: "body", pointer, detail }],
      });
    }
    await next();
  };
}

async function loneSurrogateIn(body: Promise<string>): Promise<string | null> {
  try {
    const text = await body;
    return SURROGATE_ESCAPE.test(text) ? loneSurrogateAt(JSON.parse(text)) : null;
  } catch {
    // Unreadable, too large or not JSON: the body limit or the route's validator says so.
    return null;
  }
}

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

/**
 * The JSON pointer of a string (or key) with a lone surrogate, or null. Iterative, and a
 * pointer is spelled only for the one hit, so a body nested a million levels deep costs
 * linear time and no stack.
 */
export function loneSurrogateAt(value: unknown): string | null {
  const pending: Visit[] = [{ value, key: null, parent: null }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (typeof visit.value === "string") {
      if (!visit.value.isWellFormed()) return pointerOf(visit);
      continue;
    }
    if (typeof visit.value !== "object" || visit.value === null) continue;
    const object = visit.value as Record<string, unknown>;
    for (const key in object) {
      const next = { value: object[key], key, parent: visit };
      if (!key.isWellFormed()) return pointerOf(next);
      pending.push(next);
    }
  }
  return null;
}

function pointerOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) {
    keys.push(at.key.replaceAll("~", "~0").replaceAll("/", "~1"));
  }
  return keys.length === 0 ? "" : `/${keys.reverse().join("/")}`;
}
