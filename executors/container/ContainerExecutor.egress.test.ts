/**
 * The object side of a container run's egress: the allow list goes to computerd with the
 * exec, and the bytes computerd's proxy counted land in the tenant's real ledger (workerd's
 * TenantDO) as one `egress_bytes` event, once. computerd cannot run inside workerd, so a
 * twin of its `exec` stands in and answers what the proxy would have counted.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ContainerExecOutcome, ContainerExecRequest } from "../../container/wire/index.ts";
import { ledgerEvents } from "../../test/ledger.ts";
import type { ExecRequest } from "../contract.ts";
import { runEgressRecorder } from "../egress/usage.ts";
import type { ComputerLink } from "./ComputerLink.ts";
import { type ContainerEgress, createContainerExecutor } from "./ContainerExecutor.ts";

/** A link whose computer records each exec request and answers with `egressBytes`. */
function computerAnswering(egressBytes: unknown) {
  const requests: ContainerExecRequest[] = [];
  const computer = {
    exec: async (request: ContainerExecRequest): Promise<ContainerExecOutcome> => {
      requests.push(request);
      return { status: "completed", exitCode: 0, revision: 1, durationMs: 5, egressBytes: egressBytes as number };
    },
    kill: async () => {},
  };
  const link = { computer: async () => computer } as unknown as ComputerLink;
  return { link, requests };
}

function request(egress: boolean): ExecRequest {
  return {
    execId: `ex_${crypto.randomUUID().replaceAll("-", "")}`,
    command: "curl -sI https://registry.npmjs.org/",
    cwd: "/workspace",
    env: {},
    stdin: new Uint8Array(),
    timeoutMs: 10_000,
    outputBytesMax: 1 << 20,
    egress,
  };
}

/** A fresh tenant's ledger, and the egress of `execId` billed to it as WorkspaceDO bills it. */
function tenantLedger() {
  const ledger = env.TENANT.getByName(`ten_test_${crypto.randomUUID()}`);
  const egressFor = (execId: string, allow: string[] | null): ContainerEgress => ({
    allow,
    record: runEgressRecorder(ledger, { execId, workspaceId: "ws_net", keyId: "key_net", executor: "container" }),
  });
  const events = () => ledgerEvents(ledger, "egress_bytes");
  return { egressFor, events };
}

describe("container runs with egress", () => {
  it("send the run's allow list and bill what the proxy counted as one event, once", async () => {
    const { link, requests } = computerAnswering(48_213);
    const { egressFor, events } = tenantLedger();
    const run = request(true);
    const egress = egressFor(run.execId, ["*.npmjs.org", "deb.debian.org"]);
    const executor = createContainerExecutor(link, { pathPrefix: null, revision: () => 0, egress });
    const sink = { write: async () => {} };
    expect(await executor.run(run, sink)).toEqual({ status: "completed", exitCode: 0 });
    expect(requests).toEqual([expect.objectContaining({ egress: true, allow: ["*.npmjs.org", "deb.debian.org"] })]);
    expect(await events()).toEqual([
      expect.objectContaining({
        id: `egr_${run.execId}`,
        meter: "egress_bytes",
        quantity: 48_213,
        workspaceId: "ws_net",
        keyId: "key_net",
        executor: "container",
      }),
    ]);
    // The event's id is the run's: recording the run again does not bill it twice.
    await egress.record(48_213);
    expect(await events()).toHaveLength(1);
  });

  it("send a null allow list for any public host", async () => {
    const { link, requests } = computerAnswering(10);
    const { egressFor } = tenantLedger();
    const run = request(true);
    await createContainerExecutor(link, {
      pathPrefix: null,
      revision: () => 0,
      egress: egressFor(run.execId, null),
    }).run(run, {
      write: async () => {},
    });
    expect(requests[0]).toMatchObject({ egress: true, allow: null });
  });

  it("bill nothing when no byte crossed, or when computerd reported no count", async () => {
    for (const reported of [0, undefined, -5, 1.5, "12"]) {
      const { link } = computerAnswering(reported);
      const { egressFor, events } = tenantLedger();
      const run = request(true);
      const outcome = await createContainerExecutor(link, {
        pathPrefix: null,
        revision: () => 0,
        egress: egressFor(run.execId, null),
      }).run(run, { write: async () => {} });
      expect(outcome).toEqual({ status: "completed", exitCode: 0 });
      expect(await events()).toEqual([]);
    }
  });

  it("give a run without egress no network, whatever else it was handed", async () => {
    const { link, requests } = computerAnswering(99);
    const { egressFor, events } = tenantLedger();
    const offline = request(false);
    await createContainerExecutor(link, {
      pathPrefix: null,
      revision: () => 0,
      egress: egressFor(offline.execId, null),
    }).run(offline, {
      write: async () => {},
    });
    // A request that says egress but comes without the object's policy gets none either.
    const unbound = request(true);
    await createContainerExecutor(link, { pathPrefix: null, revision: () => 0, egress: null }).run(unbound, {
      write: async () => {},
    });
    expect(requests).toEqual([
      expect.objectContaining({ egress: false, allow: null }),
      expect.objectContaining({ egress: false, allow: null }),
    ]);
    expect(await events()).toEqual([]);
  });
});
