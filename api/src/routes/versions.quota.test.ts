import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLANS, type Plan } from "../../../tenants/account/plans.ts";
import { call, createWorkspace, expectProblem, signup } from "../../../test/client.ts";

const withSnapshots = (snapshotsPerWorkspaceMax: number): Plan => ({
  ...PLANS.free,
  versions: { ...PLANS.free.versions, snapshotsPerWorkspaceMax },
});

describe("the plan's snapshots per workspace", () => {
  it("refuses one past the quota with 429, and a plan change counts on the object already awake", async () => {
    const tenant = await signup();
    const id = await createWorkspace(tenant.key);
    const ledger = env.TENANT.getByName(tenant.tenantId);
    const snapshot = () => call("POST", `/v1/workspaces/${id}/snapshots`, { key: tenant.key, json: {} });
    await ledger.setPlan(withSnapshots(2));
    expect((await snapshot()).status).toBe(201);
    expect((await snapshot()).status).toBe(201);
    const refused = await expectProblem(await snapshot(), 429, "quota_exceeded");
    expect(refused.detail).toMatch(/at most 2 snapshots per workspace/);

    // The workspace's object has told its terms; the upgrade must not wait for it to restart.
    await ledger.setPlan(withSnapshots(3));
    expect((await snapshot()).status).toBe(201);
    await expectProblem(await snapshot(), 429, "quota_exceeded");
  });
});
