/**
 * Every authenticated route declares its admission, so a new route cannot slip past the
 * storage cap by forgetting to; and the declarations, read together, are the policy: only
 * uploads, the fs operations that can add bytes, a restore, a fork, and exec meet the storage cap.
 */
import { expect, it } from "vitest";
import { createApp } from "../app.ts";
import { type AdmissionNeed, admissionDeclaredBy } from "./admits.ts";

/** Registered before authentication: it is not admitted, there is no tenant yet. */
const UNADMITTED = new Set(["POST /v1/signup"]);

function declarations() {
  const operations = new Map<string, AdmissionNeed | undefined>();
  for (const route of createApp().routes) {
    if (!route.path.startsWith("/v1/") || route.method === "ALL") continue;
    // `:path{[\s\S]+}` reads as `:path`: the pattern is the router's business.
    const operation = `${route.method} ${route.path.replace(/\{.*\}$/, "")}`;
    operations.set(operation, operations.get(operation) ?? admissionDeclaredBy(route.handler));
  }
  return operations;
}

it("has every /v1 route declare its admission", () => {
  const operations = declarations();
  expect(operations.size).toBeGreaterThan(40);
  const undeclared = [...operations].filter(([op, need]) => !need && !UNADMITTED.has(op)).map(([op]) => op);
  expect(undeclared).toEqual([]);
});

it("sends exactly the operations that can add bytes to the storage cap", () => {
  const capped = [...declarations()].filter(([, need]) => need === "write" || need === "exec");
  expect(Object.fromEntries(capped)).toEqual({
    "PUT /v1/workspaces/:workspaceId/files/:path": "write",
    "POST /v1/workspaces/:workspaceId/fs/copy": "write",
    "POST /v1/workspaces/:workspaceId/fs/truncate": "write",
    "POST /v1/workspaces/:workspaceId/fs/batch": "write",
    // A restore can bring back more than the live tree holds.
    "POST /v1/workspaces/:workspaceId/restore": "write",
    // A fork is a new workspace billed for every unique byte its tree reaches.
    "POST /v1/workspaces/:workspaceId/fork": "write",
    "POST /v1/workspaces/:workspaceId/exec": "exec",
  });
});
