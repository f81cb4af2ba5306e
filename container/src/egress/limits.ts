/** Limits of one exec's egress proxy (proxy.ts), each with the reason it exists. */
export const egressProxyLimits = {
  /**
   * Bytes of one request head (request line and headers). Node's own default: git, npm, pip
   * and curl send well under 2 KiB, and a head past this is a bug or an attack on the parser.
   */
  headerBytesMax: 16 * 1024,
  /** Header lines of one request head kept (Node drops the rest); the same tools send fewer than 20. */
  headerCountMax: 100,
  /** A connection that has not sent a whole request head by then is closed: a client that connected and stalled holds a slot. */
  headerTimeoutMs: 10_000,
  /**
   * Connections from the box at once (the bridge opens one per client connection), and
   * upstream connections at once. npm opens up to 15 (its `maxsockets` default), pip 10,
   * browsers 6 per host; 64 leaves room for tools running side by side while bounding the
   * daemon's descriptors: two per tunnel, for each of up to 64 commands.
   */
  connectionsMax: 64,
  /**
   * A connection or tunnel with no byte either way for this long is closed. Clients reopen
   * idle keep-alive connections by themselves; a leaked one would otherwise hold a slot until
   * the command ends (which bounds everything else: the proxy closes with its exec).
   */
  idleTimeoutMs: 120_000,
  /** One TCP connect to one upstream address: a reachable host answers in well under a second, even across the world. */
  connectTimeoutMs: 10_000,
  /** Addresses of one name tried in turn when connecting fails (a dead AAAA record, then the A record). */
  connectAttemptsMax: 4,
  /**
   * One DNS query, and tries of it (c-ares, per record type). Lookups never use the libuv
   * thread pool, so slow DNS cannot stall the daemon's file operations, which share that pool.
   */
  resolveTimeoutMs: 3_000,
  resolveTries: 2,
  /**
   * Ports a CONNECT tunnel may reach: https (443), and 80 for clients that tunnel plain
   * http or ws:// too. A tunnel is an opaque byte pipe, so its port is the only thing that
   * says what is inside; keeping to the web's two ports keeps mail (25, 465, 587), ssh and
   * databases out, as Squid's default does. git over https, npm, pip, apt and curl use 443.
   * Plain http through the proxy (absolute-form requests) may name any port: the proxy
   * speaks HTTP to the upstream itself.
   */
  connectPorts: [80, 443] as readonly number[],
} as const;

/** The table's shape, each number widened so tests can lower one. */
export type EgressProxyLimits = {
  [K in keyof typeof egressProxyLimits]: (typeof egressProxyLimits)[K] extends number
    ? number
    : (typeof egressProxyLimits)[K];
};
