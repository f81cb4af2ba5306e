/**
 * The rooms' import rules (docs/DESIGN's layout), checked by `npm run check`:
 *   api → tenants → executors → container/wire;  container/src → container/wire.
 * A room may import those to its right, never those to its left; container/wire, the
 * contract both sides of a container session share, imports no other room. Tests and test
 * harnesses are left out for now: several executor tests still borrow api/test's harness,
 * which is to move to a top-level test/ (issue 21). Cycles inside a room (app.ts and its
 * routes import each other's types; the shell corpus's feature files and their index) are
 * not checked yet: a no-circular rule comes once they are broken.
 */
const tests = "(\\.test\\.ts$|/testing/|testing\\.ts$|^api/test/|^api/e2e/)";

/** A rule that `from` may not import `to`, production sources only. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: "error",
  from: { path: from, pathNot: tests },
  to: { path: to },
});

module.exports = {
  forbidden: [
    forbid("tenants-not-api", "tenants serve the gateway; they never reach back into it", "^tenants/", "^api/"),
    forbid(
      "executors-not-up",
      "executors get what they need as arguments (a usage recorder, the workspace's files), not the gateway or the tenants",
      "^executors/",
      "^(api|tenants)/",
    ),
    forbid(
      "wire-stands-alone",
      "container/wire is loaded by both a Worker and Node: it imports no other room",
      "^container/wire/",
      "^(api|tenants|executors|container/(src|supervisor|image|native))/",
    ),
    forbid(
      "daemon-only-wire",
      "computerd runs in the box and knows the object only through container/wire",
      "^container/src/",
      "^(api|tenants|executors|container/supervisor)/",
    ),
    forbid(
      "gateway-not-daemon",
      "the gateway and the objects reach computerd only through the wire",
      "^(api|tenants|executors)/",
      "^container/(src|supervisor)/",
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^node_modules|^\\.build|^sdk/|^\\.wrangler)" },
  },
};
