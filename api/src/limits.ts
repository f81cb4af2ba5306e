/** Limits of the gateway's edge, each with the reason it exists. */
export const gatewayLimits = {
  /**
   * Request headers one request may carry. Browsers send about 20 and proxies add a few;
   * workerd cannot pass more than about 1,000 between Workers (a DataCloneError), so
   * anything near that is refused first, with a 431 that says why.
   */
  requestHeadersMax: 256,
  /** A JSON body's bytes: the largest request body is an exec's source (256 KiB) plus its input. */
  jsonBodyBytesMax: 1024 * 1024,
} as const;
