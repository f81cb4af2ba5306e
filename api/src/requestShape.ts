/**
 * What the gateway can tell about a request from its first line and headers alone, before
 * any body arrives. Pure and free of Worker imports, so the local edge in front of
 * `wrangler dev` (scripts/localEdge.ts) applies the very same rules the Worker does.
 */
import { workspaceLimits } from "../../tenants/workspace/limits.ts";
import { gatewayLimits } from "./limits.ts";

/** File bodies stream into the workspace, which applies the (much larger) file size limit. */
export function isFileUpload(method: string, path: string): boolean {
  return method === "PUT" && /^\/v1\/workspaces\/[^/]+\/files\//.test(path);
}

/** The largest body the gateway accepts for this request: a file's for uploads, else a JSON body's. */
export function requestBodyBytesMax(method: string, path: string): number {
  return isFileUpload(method, path) ? workspaceLimits.fileBytesMax : gatewayLimits.jsonBodyBytesMax;
}

/**
 * Why a request must be refused from its headers alone (413 or 431), or null. A declared
 * `Content-Length` over the limit is refused at once, before the body is read or awaited:
 * a client that claims a gigabyte and sends two bytes gets its answer now, not never.
 */
export function headerRefusal(
  method: string,
  path: string,
  headerCount: number,
  contentLength: string | null,
): { code: "request_headers_too_large" | "payload_too_large"; detail: string } | null {
  if (headerCount > gatewayLimits.requestHeadersMax) {
    return {
      code: "request_headers_too_large",
      detail: `a request may carry at most ${gatewayLimits.requestHeadersMax} headers; this one has ${headerCount}`,
    };
  }
  const maxBytes = requestBodyBytesMax(method, path);
  if (contentLength !== null && /^\d+$/.test(contentLength) && Number(contentLength) > maxBytes) {
    return { code: "payload_too_large", detail: `request body is larger than ${maxBytes} bytes` };
  }
  return null;
}
