/**
 * Helpers for dashboard tests inside workerd: sign in with a key the way the form does, then
 * fetch pages and post forms with the session cookie, through the real Worker entry.
 */
import { exports } from "cloudflare:workers";

export const ORIGIN = "http://cubicle.test";

/** The sign-in answer itself (303 with the cookie, or the refusal page). */
export function signInResponse(key: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/dashboard/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ apiKey: key }),
      redirect: "manual",
    }),
  );
}

/** The session cookie's `name=value` of an answer that set one. */
export function sessionCookie(response: Response): string {
  return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

/** Signs in and answers the session cookie's `name=value`; throws when sign-in is refused. */
export async function signIn(key: string): Promise<string> {
  const response = await signInResponse(key);
  if (response.status !== 303) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return sessionCookie(response);
}

export function page(path: string, cookie: string): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { cookie }, redirect: "manual" }));
}

/** A form post from `origin` (the dashboard's own by default). */
export function post(
  path: string,
  cookie: string,
  form: Record<string, string> | [string, string][],
  origin = ORIGIN,
): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
      redirect: "manual",
    }),
  );
}

/** The CSRF secret a page's forms carry. */
export async function csrfOf(response: Response): Promise<string> {
  const match = /name="_csrf" value="([^"]+)"/.exec(await response.text());
  if (!match?.[1]) throw new Error("no CSRF field on the page");
  return match[1];
}

/** A signed-in session: its cookie and the CSRF secret of the page at `path`'s forms. */
export async function session(key: string, path = "/dashboard") {
  const cookie = await signIn(key);
  return { cookie, csrf: await csrfOf(await page(path, cookie)) };
}
