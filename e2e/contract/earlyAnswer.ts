/**
 * A body over the gateway's JSON limit is refused from its `Content-Length` alone (413, at
 * once; docs/errors.md "Refused from the headers alone"). The answer then comes while the
 * client is still writing the body, and fetch (undici) reports the connection's end as a
 * failed write (EPIPE) without ever showing it. This asks the way a careful client would:
 * the headers, with the length the body has, and no body, then reads what comes back.
 */
import { request } from "node:http";
import type { WireRequest } from "./requests.ts";
import type { Answer } from "./verdict.ts";

/** The gateway's JSON body limit (api/src/limits.ts), past which the answer comes before the body. */
export const JSON_BODY_BYTES_MAX = 1024 * 1024;

const ANSWER_TIMEOUT_MS = 5_000;

export function bodyBytes(wire: WireRequest): number {
  if (wire.body === null) return 0;
  return typeof wire.body === "string" ? Buffer.byteLength(wire.body) : wire.body.length;
}

export function answerToHeadersAlone(url: string, wire: WireRequest, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve) => {
    const target = new URL(wire.target, url);
    const sent = request(target.href, {
      method: wire.method,
      headers: { ...headers, "content-length": String(bodyBytes(wire)), connection: "close" },
      timeout: ANSWER_TIMEOUT_MS,
    });
    const fail = (why: string) => resolve({ status: 0, contentType: "", retryAfter: null, text: `no answer: ${why}` });
    sent.on("timeout", () => {
      sent.destroy();
      fail(`nothing within ${ANSWER_TIMEOUT_MS} ms of the headers of a ${bodyBytes(wire)}-byte body`);
    });
    sent.on("error", (error) => fail(error.message));
    sent.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers["content-type"] ?? ""),
          retryAfter: (response.headers["retry-after"] as string | undefined) ?? null,
          text,
        });
        sent.destroy();
      });
    });
    // Headers only: the body the length promises never comes, as in a refused upload.
    sent.flushHeaders();
  });
}
