/**
 * The computer limits a container run is granted: the tenant's plan's, from the run's first
 * command after a plan change, and for accounts whose stored plan predates them.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLANS, type Plan } from "./plans.ts";

const run = (executor: "shell" | "container", execId = `ex_${crypto.randomUUID()}`) => ({
  execId,
  executor,
  timeoutMs: 10_000,
  egress: false,
  workspaceId: "ws",
  keyId: null,
});

/** A tenant's object that has the workspace `ws`. */
async function ledger() {
  const stub = env.TENANT.getByName(`ten_test_${crypto.randomUUID()}`);
  await stub.addWorkspace("ws");
  return stub;
}

describe("container run grants", () => {
  it("carry the plan's computer limits for container runs only", async () => {
    const stub = await ledger();
    expect(await stub.startRun(run("container", "ex_c"))).toMatchObject({ ok: true, resources: PLANS.free.container });
    // The same run asked again (a retried request) gets the same answer.
    expect(await stub.startRun(run("container", "ex_c"))).toMatchObject({ resources: PLANS.free.container });
    const shell = await stub.startRun(run("shell"));
    expect(shell.ok && "resources" in shell).toBe(false);
  });

  it("follow a plan change from the next run on", async () => {
    const stub = await ledger();
    expect(await stub.changePlan("pro")).toMatchObject({ ok: true });
    expect(await stub.startRun(run("container"))).toMatchObject({ ok: true, resources: PLANS.pro.container });
  });

  it("give an account whose stored plan has no limits yet those of the public plan it names", async () => {
    const stub = await ledger();
    const { container: _, ...older } = PLANS.scale;
    await stub.setPlan(older as unknown as Plan);
    expect(await stub.startRun(run("container"))).toMatchObject({ resources: PLANS.scale.container });
    await stub.setPlan({ ...(older as unknown as Plan), id: "contract_acme" });
    expect(await stub.startRun(run("container"))).toMatchObject({ resources: PLANS.free.container });
  });

  it("keep every plan below two cores, so one computer never holds all of a 2-core host", () => {
    for (const plan of Object.values(PLANS)) expect(plan.container.cpuMillicores).toBeLessThan(2_000);
  });
});
