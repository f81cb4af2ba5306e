/**
 * The computer limits of a container run reach computerd: the tenant's grant (workerd's real
 * TenantDO) names them, and the exec request on the wire carries them. computerd cannot run
 * inside workerd, so a twin of its `exec` records what it was sent.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ContainerExecOutcome, ContainerExecRequest } from "../../container/wire/index.ts";
import type { ExecRequest } from "../contract.ts";
import type { ComputerLink } from "./ComputerLink.ts";
import { createContainerExecutor } from "./ContainerExecutor.ts";

function recordingComputer() {
  const requests: ContainerExecRequest[] = [];
  const computer = {
    exec: async (request: ContainerExecRequest): Promise<ContainerExecOutcome> => {
      requests.push(request);
      return { status: "completed", exitCode: 0, revision: 1, durationMs: 5 } as ContainerExecOutcome;
    },
    kill: async () => {},
  };
  return { link: { computer: async () => computer } as unknown as ComputerLink, requests };
}

const request = (execId: string): ExecRequest => ({
  execId,
  command: "true",
  cwd: "/workspace",
  env: {},
  stdin: new Uint8Array(),
  timeoutMs: 10_000,
  outputBytesMax: 1 << 20,
  egress: false,
});

describe("container run resources", () => {
  it("go from the tenant's grant to computerd with the exec", async () => {
    const ledger = env.TENANT.getByName(`ten_test_${crypto.randomUUID()}`);
    await ledger.changePlan("pro");
    await ledger.addWorkspace("ws");
    const execId = `ex_${crypto.randomUUID().replaceAll("-", "")}`;
    const grant = await ledger.startRun({
      execId,
      executor: "container",
      timeoutMs: 10_000,
      egress: false,
      workspaceId: "ws",
      keyId: null,
    });
    if (!grant.ok) throw new Error(grant.detail);
    // The pro plan's limits (tenants/account/TenantDO.resources.test.ts holds the grant to the plan).
    expect(grant.resources?.memoryBytesMax).toBeGreaterThan(0);
    const { link, requests } = recordingComputer();
    const executor = createContainerExecutor(link, { pathPrefix: null, revision: () => 0, egress: null });
    await executor.run(
      { ...request(execId), ...(grant.resources ? { resources: grant.resources } : {}) },
      {
        write: async () => {},
      },
    );
    expect(requests).toEqual([expect.objectContaining({ execId, resources: grant.resources })]);
  });

  it("are left out for a request that has none, and computerd keeps its own", async () => {
    const { link, requests } = recordingComputer();
    await createContainerExecutor(link, { pathPrefix: null, revision: () => 0, egress: null }).run(
      request("ex_plain"),
      {
        write: async () => {},
      },
    );
    expect(requests[0]).not.toHaveProperty("resources");
  });
});
