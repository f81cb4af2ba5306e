/**
 * The executor a workspace's run gets, built inside WorkspaceDO: the workspace's files
 * confined as the run is (WorkspaceFsTarget), its tools (WorkspaceToolsTarget), its network
 * when it may have one (the metering egress gateway), and for container runs the
 * workspace's link to its computer. Split from the object so the object stays an RPC shell.
 */
import { allowListDigest, type EgressPolicy } from "../../../container/wire/egress/allowList.ts";
import { ComputerLink } from "../../../executors/container/ComputerLink.ts";
import type { ContainerEgress } from "../../../executors/container/ContainerExecutor.ts";
import { type ContainerEnv, containerHostFor } from "../../../executors/container/host.ts";
import type { Executor, ExecutorReadiness } from "../../../executors/contract.ts";
import { runEgressRecorder } from "../../../executors/egress/usage.ts";
import { createExecutor, type Outbound } from "../../../executors/registry.ts";
import type { ImageModel } from "../images.ts";
import type { WorkspaceOwner } from "../names.ts";
import type { WorkspacePublishing } from "../publishing.ts";
import type { Vfs } from "../vfs/Vfs.ts";
import type { StartExec } from "./ExecRunner.ts";
import { WorkspaceFsTarget } from "./WorkspaceFsTarget.ts";
import { WorkspaceSyncTarget } from "./WorkspaceSyncTarget.ts";
import { WorkspaceToolsTarget } from "./WorkspaceToolsTarget.ts";

/** What the executors of one workspace are made from; the object hands its own parts in. */
export interface RunParts {
  ctx: DurableObjectState;
  env: Env;
  vfs: Vfs;
  owner: () => WorkspaceOwner;
  publishing: () => WorkspacePublishing;
  /** Read at each run: tests stand a fake Workers AI model in on the object (test/fakeAi.ts). */
  imageModel: () => ImageModel | null;
}

export class RunExecutors {
  private link: ComputerLink | null | undefined;
  /** Container runs in progress, by id: a push while exactly one runs is that run's change. */
  private readonly containerRuns = new Set<string>();

  constructor(private readonly parts: RunParts) {}

  /** The executor for a run, over this workspace's filesystem confined as the run is; null when unavailable here. */
  async executor(start: StartExec): Promise<Executor | null> {
    const { env, vfs } = this.parts;
    const { tenantId, workspaceId } = this.parts.owner();
    const executor = createExecutor(start.executor, {
      loader: env.LOADER,
      fs: new WorkspaceFsTarget(vfs, { pathPrefix: start.pathPrefix, actor: `exec:${start.execId}` }),
      tools: new WorkspaceToolsTarget(
        this.parts.publishing(),
        {
          pathPrefix: start.pathPrefix,
          baseUrl: start.baseUrl,
          keyId: start.keyId,
          credentialExpiresAt: start.credentialExpiresAt,
        },
        {
          model: this.parts.imageModel(),
          ledger: env.TENANT.getByName(tenantId),
          workspaceId,
          executor: start.executor,
        },
      ),
      isolateKey: tenantId,
      outbound: start.egress ? await this.outbound(start, start.egress) : null,
      container: start.executor === "container" ? this.computerLink(start) : null,
    });
    return executor && start.executor === "container" ? this.tracked(executor) : executor;
  }

  /**
   * This workspace's link to its computerd, made on the first container run when the
   * deployment has a container host. From then on every change to the tree, whoever makes
   * it, is announced to a connected computer so its mount follows.
   */
  private computerLink(start: StartExec) {
    const { ctx, env, vfs } = this.parts;
    if (this.link === undefined) {
      // The secret and supervisor address are deployment secrets or `npm start` vars, not in wrangler.toml.
      const found = containerHostFor(env as Env & ContainerEnv);
      const name = ctx.id.name;
      const sync = new WorkspaceSyncTarget(vfs, () => this.containerActor());
      this.link = found && name ? new ComputerLink(found.host, found.secret, name, sync) : null;
      const link = this.link;
      if (link) vfs.onChange((revision) => link.changed(revision));
    }
    if (!this.link) return null;
    return {
      link: this.link,
      pathPrefix: start.pathPrefix,
      egress: this.containerEgress(start),
      revision: () => vfs.revision(),
    };
  }

  /** Who a container push is recorded as (WorkspaceSyncTarget): the one run in progress, or `container`. */
  private containerActor(): string {
    const [only, ...others] = this.containerRuns;
    return only !== undefined && others.length === 0 ? `exec:${only}` : "container";
  }

  /** The container executor, noting each run while it is in progress (for `containerActor`). */
  private tracked(executor: Executor): Executor {
    const runs = this.containerRuns;
    return {
      async run(request, sink) {
        runs.add(request.execId);
        try {
          return await executor.run(request, sink);
        } finally {
          runs.delete(request.execId);
        }
      },
      kill: (execId) => executor.kill(execId),
      ...(executor.ready ? { ready: () => (executor.ready as () => Promise<ExecutorReadiness>)() } : {}),
    };
  }

  /**
   * A container run's network, when it may have one: its allow list, which computerd's proxy
   * enforces, and its billing: the bytes the proxy counted, as one `egress_bytes` event under
   * the run's own id, attributed as the gateway attributes each request (executors/egress/usage.ts).
   */
  private containerEgress(start: StartExec): ContainerEgress | null {
    if (!start.egress) return null;
    const { tenantId, workspaceId } = this.parts.owner();
    return {
      allow: start.egress.allow,
      record: runEgressRecorder(this.parts.env.TENANT.getByName(tenantId), {
        execId: start.execId,
        workspaceId,
        keyId: start.keyId,
        executor: start.executor,
      }),
    };
  }

  /**
   * The metering egress gateway for a run that may reach the network (the tenant object
   * admitted the run only if its plan allows egress), bound to who pays for the bytes and
   * to the run's allow list. The attribution names both (the list by its digest), so a warm
   * isolate is only ever reused by runs billed to the same key and allowed the same hosts.
   */
  private async outbound(start: StartExec, egress: EgressPolicy): Promise<Outbound> {
    const { tenantId, workspaceId } = this.parts.owner();
    const { keyId, executor } = start;
    const { allow } = egress;
    const reach = allow === null ? "any" : `allow-${await allowListDigest(allow)}`;
    return {
      fetcher: this.parts.ctx.exports.EgressGateway({ props: { tenantId, workspaceId, keyId, executor, allow } }),
      attribution: `${workspaceId}:${keyId ?? "-"}:${reach}`,
    };
  }
}
