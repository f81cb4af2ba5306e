/**
 * What a proxy request asks for, read and judged before any DNS query or connection: the
 * CONNECT authority or the absolute-form URL, normalised by the same WHATWG URL parser that
 * normalised the run's allow list, then the shared policy (container/wire/egress): the name
 * or literal must not be the platform's own network, the host must be on the allow list if
 * the run has one, and a tunnel must aim at one of the web's ports.
 */
import { allowListed } from "../../wire/egress/allowList.ts";
import { refusedDestination } from "../../wire/egress/destination.ts";
import { notAllowedText, notPublicText, REFUSAL_PREFIX } from "../../wire/egress/refusal.ts";

/** A request the policy lets through, as far as it can tell without resolving the name. */
export interface Target {
  /** The host as the URL parser wrote it, brackets stripped from an IPv6 literal. */
  host: string;
  port: number;
  /** How messages name it: `host:port` for a tunnel, the origin for plain http. */
  label: string;
  url: URL;
}

/** Why the proxy answers instead of forwarding: the status and the one-line body. */
export interface Answer {
  /** 400 unreadable, 403 refused by the policy, 502/504 unreachable, 503 over a limit. */
  status: number;
  text: string;
}

/** `host:port`, an IPv6 host in brackets; nothing a URL parser could read as more. */
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[^\s/?#@\\[\]:]+):(\d{1,5})$/;

/** The target of `CONNECT authority`, or why it is refused. */
export function connectTarget(
  authority: string,
  allow: readonly string[] | null,
  ports: readonly number[],
): Target | Answer {
  const match = AUTHORITY.exec(authority);
  const url = match ? parse(`https://${authority}/`) : null;
  if (!url) return { status: 400, text: `${REFUSAL_PREFIX} CONNECT needs host:port, not ${JSON.stringify(authority)}` };
  const port = Number(url.port || 443);
  const target = { host: bare(url.hostname), port, label: `${url.hostname}:${port}`, url };
  const refused = refusedDestination(url);
  if (refused) return { status: 403, text: notPublicText(target.label, refused) };
  if (allow && !allowListed(url, allow)) return { status: 403, text: notAllowedText(target.label, allow) };
  if (!ports.includes(port)) {
    return {
      status: 403,
      text: `${REFUSAL_PREFIX} refused ${target.label}: tunnels reach only ports ${ports.join(" and ")}; plain http may use any port`,
    };
  }
  return target;
}

/** The target of an absolute-form request (`GET http://host/path`), or why it is refused. */
export function forwardTarget(requestTarget: string, allow: readonly string[] | null): Target | Answer {
  if (requestTarget.startsWith("/")) {
    return {
      status: 400,
      text: `${REFUSAL_PREFIX} this is an http proxy: send absolute-form requests (GET http://host/path), or CONNECT host:port for https`,
    };
  }
  const url = parse(requestTarget);
  if (!url) return { status: 400, text: `${REFUSAL_PREFIX} ${JSON.stringify(requestTarget)} is not a URL` };
  if (url.protocol === "https:") {
    return { status: 400, text: `${REFUSAL_PREFIX} https goes through a tunnel: CONNECT ${url.host}` };
  }
  const refused = refusedDestination(url);
  if (refused) return { status: 403, text: notPublicText(url.origin, refused) };
  if (allow && !allowListed(url, allow)) return { status: 403, text: notAllowedText(url.origin, allow) };
  return { host: bare(url.hostname), port: Number(url.port || 80), label: url.origin, url };
}

export function isAnswer(value: Target | Answer): value is Answer {
  return "status" in value;
}

function parse(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.username === "" && url.password === "" ? url : null;
  } catch {
    return null;
  }
}

function bare(hostname: string): string {
  const host = hostname.replace(/\.$/, "");
  return host.startsWith("[") ? host.slice(1, -1) : host;
}
