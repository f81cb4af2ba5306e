/**
 * The production ContainerHost: one Cloudflare Container per workspace, addressed by the
 * workspace object's own name, reached through the Container Durable Object's `fetch`
 * (which starts the container on first use and forwards to computerd's port).
 */
import { type ContainerHost, openWebSocket, type SyncSocket } from "./ContainerHost.ts";

export class CloudflareContainerHost implements ContainerHost {
  constructor(private readonly namespace: DurableObjectNamespace) {}

  connect(workspace: string): Promise<SyncSocket> {
    return openWebSocket(this.namespace.getByName(workspace), "http://computerd/session");
  }

  async forget(workspace: string): Promise<void> {
    // A Cloudflare Container's disk goes with the instance: destroying it forgets the replica.
    await (this.namespace.getByName(workspace) as unknown as { destroy(): Promise<void> }).destroy();
  }
}
