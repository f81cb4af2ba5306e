/**
 * One executor request through the egress gateway: refuse it if it aims at the platform's
 * own network, otherwise forward it and count the body bytes that cross, both ways.
 *
 * What is counted: request body bytes the upstream read, plus response body bytes the
 * executor read, as the runtime hands them over (after HTTP content decoding); not headers,
 * TLS or retransmits. Both bodies are counted as they stream — nothing is buffered — and the
 * total is reported once, when the response body ends, fails or is cancelled (at once when
 * there is none, or when the upstream could not be reached). Request bytes still unread at
 * that moment were never sent and are not counted. A request that moved no body bytes
 * reports nothing.
 *
 * Redirects are not followed here (`redirect: "manual"`): the executor's own fetch follows
 * them with a new request through this gateway, so every hop's destination is checked.
 *
 * A run with an allow list (container/wire/egress/allowList.ts) gets a 403 for any host not on it, before the
 * upstream is called and so with nothing counted; every redirect hop is matched again.
 */
import { allowListed } from "../../container/wire/egress/allowList.ts";
import { refusedDestination } from "../../container/wire/egress/destination.ts";
import { notAllowedText, notPublicText, unreachableText } from "../../container/wire/egress/refusal.ts";

export interface EgressUsage {
  /** Request body bytes the upstream read. */
  sentBytes: number;
  /** Response body bytes that reached the executor. */
  receivedBytes: number;
}

export interface MeteredFetchDeps {
  /** The upstream: the runtime's fetch in production, a fake in tests. */
  fetch: (request: Request) => Promise<Response>;
  /** Records one request's usage; called at most once per request. */
  record: (usage: EgressUsage) => Promise<void>;
  /** Keeps the recording alive after the response has been returned (`ctx.waitUntil`). */
  waitUntil: (work: Promise<unknown>) => void;
}

/**
 * `allow` is the run's normalised allow list (container/wire/egress/allowList.ts), or null for any public host.
 */
export async function meteredFetch(
  request: Request,
  deps: MeteredFetchDeps,
  allow: readonly string[] | null = null,
): Promise<Response> {
  const url = new URL(request.url);
  const refused = refusedDestination(url);
  if (refused) return gatewayError(403, notPublicText(url.origin, refused));
  if (allow && !allowListed(url, allow)) return gatewayError(403, notAllowedText(url.origin, allow));

  let sentBytes = 0;
  let reported = false;
  const report = (receivedBytes: number) => {
    if (reported) return;
    reported = true;
    if (sentBytes + receivedBytes === 0) return;
    deps.waitUntil(
      deps.record({ sentBytes, receivedBytes }).catch((error) => console.error("egress metering failed", error)),
    );
  };

  const body = request.body ? countingStream(request.body, (bytes) => (sentBytes += bytes)) : null;
  // A JS stream has no length, so the upstream would get a chunked body; where the executor
  // sent a length, keep it (some servers refuse chunked uploads).
  const length = Number(request.headers.get("content-length") ?? Number.NaN);
  const sized =
    body && Number.isSafeInteger(length) && length >= 0 ? body.pipeThrough(new FixedLengthStream(length)) : body;
  let response: Response;
  try {
    response = await deps.fetch(
      new Request(request.url, { method: request.method, headers: request.headers, body: sized, redirect: "manual" }),
    );
  } catch (error) {
    report(0);
    return gatewayError(502, unreachableText(url.origin, (error as Error).message));
  }
  if (!response.body) {
    report(0);
    return response;
  }
  let receivedBytes = 0;
  const counted = countingStream(
    response.body,
    (bytes) => (receivedBytes += bytes),
    () => report(receivedBytes),
  );
  return new Response(counted, response);
}

function gatewayError(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * `source` passed through chunk by chunk, calling `onChunk` with each chunk's size and
 * `onEnd` once when the stream ends, fails or is cancelled by its reader. A pull-based
 * ReadableStream rather than a TransformStream so that a reader's cancel reaches `onEnd`
 * without relying on the transformer `cancel` hook.
 */
export function countingStream(
  source: ReadableStream<Uint8Array>,
  onChunk: (bytes: number) => void,
  onEnd: () => void = () => {},
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
          return;
        }
        onChunk(value.byteLength);
        controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    },
  });
}
