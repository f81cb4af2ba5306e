/**
 * The in-box half of a run's egress: how a command inside its box reaches the proxy. The box
 * has its own network namespace with nothing but loopback, so the proxy's unix socket is
 * bind-mounted in at `egressBox.socket`, a bridge (socat) listens on 127.0.0.1:`egressBox.port`
 * and forwards each connection to it, and the command's proxy variables point there. A
 * program that ignores the variables and dials out directly finds no route: the proxy is
 * the only way out.
 */

export const egressBox = {
  /** Where the run's proxy socket appears inside the box. */
  socket: "/run/cubicle/egress.sock",
  /** The bridge's port on the box's loopback: Squid's, so tools and people recognise it. */
  port: 3128,
} as const;

/** The bridge, started in the box before the command and left running beside it. */
export function egressBridgeArgv(): string[] {
  return ["socat", `TCP-LISTEN:${egressBox.port},bind=127.0.0.1,fork,reuseaddr`, `UNIX-CONNECT:${egressBox.socket}`];
}

/**
 * The proxy variables a command with egress gets. Both spellings, because tools disagree:
 * curl reads `http_proxy` only in lowercase (the uppercase one is ignored for CGI safety)
 * and the rest in either case; npm, pip, git, apt (through libcurl or its own http) and
 * Python's urllib read one or the other. `ALL_PROXY` catches tools that read only that
 * one; a scheme the proxy does not carry gets its 403 with a reason instead of a silent
 * connection failure. `NO_PROXY` keeps servers the command runs on its own loopback
 * reachable. `NODE_USE_ENV_PROXY` makes Node (24 and later) use the proxy for `fetch` and
 * `https.get`, which otherwise ignore these variables.
 */
export function egressBoxEnv(): Record<string, string> {
  const proxy = `http://127.0.0.1:${egressBox.port}`;
  const local = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    ALL_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    all_proxy: proxy,
    NO_PROXY: local,
    no_proxy: local,
    NODE_USE_ENV_PROXY: "1",
  };
}
