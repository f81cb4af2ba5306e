/**
 * The rooms' import rules (docs/DESIGN's layout), checked by `npm run check`:
 *   api → tenants → executors → container/wire;  container/src → container/wire.
 * A room may import those to its right, never those to its left; container/wire, the
 * contract both sides of a container session share, imports no other room. A room's tests
 * follow its rules too; what a test needs from a room it may not import comes through the
 * shared harness, test/ (and the end-to-end suites, e2e), which may import any room and
 * which no production source imports. No module may import itself through others
 * (no-circular), in any room, tests included: a cycle means neither side can be read,
 * tested or moved alone, and a runtime one loads half-initialised modules.
 */
const harnesses = "(^test/|^e2e/)";
/** Tests, suites and test-only helpers inside the rooms. */
const testFiles = "(\\.test\\.ts$|\\.suite\\.ts$|/testing/|testing\\.ts$|/test/)";

/** A rule that `from` may not import `to`, for sources and their tests alike. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: "error",
  from: { path: from, pathNot: harnesses },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "a cycle, even of types only, ties its files together: move the shared type or value to a file both import (as context.ts holds App, executors/context.ts ExecutorContext)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "harness-only-in-tests",
      comment:
        "test/ stands in for the platform around a test (fake AI, crafted tokens, fixtures); production code never runs it",
      severity: "error",
      from: { path: "^(api|tenants|executors|container)/", pathNot: `${testFiles}|${harnesses}` },
      to: { path: "^test/" },
    },
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
    // Generated code (the SDK's client, by @hey-api/openapi-ts) is checked by its generator's tests, not here.
    exclude: { path: "(node_modules|^\\.build|^\\.wrangler|^sdk-gen/typescript/src/generated/|/dist/)" },
  },
};
