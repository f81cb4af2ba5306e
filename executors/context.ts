/**
 * What the workspace object gives every executor it builds (registry.ts): the sandbox
 * loader, its file and publishing capabilities, and the network and container paths the run
 * may use. Its own file so that an executor can name it without importing the registry,
 * which imports every executor.
 */
import type { ComputerLink } from "./container/ComputerLink.ts";
import type { ContainerRunOptions } from "./container/ContainerExecutor.ts";
import type { WorkspaceFsApi, WorkspaceToolsApi } from "./contract.ts";

export interface ExecutorContext {
  /** The Worker Loader, for executors that run code in Dynamic Workers. */
  loader: WorkerLoader;
  /** This workspace's filesystem, as a capability (an RpcTarget the sandbox may call). */
  fs: WorkspaceFsApi;
  /** Publishing from the run (artifacts, share links), bound to this workspace and the run's credential. */
  tools: WorkspaceToolsApi;
  /**
   * Which warm sandbox to reuse: the tenant. A tenant's workspaces share warm isolates (so a
   * new workspace's first command is not a cold start); tenants never do. Each run still
   * gets only its own workspace's file capability, passed per call and revoked at return.
   * Sandboxes with an outbound are narrower still (see `Outbound.attribution`).
   */
  isolateKey: string;
  /**
   * Where the sandbox's network traffic goes, for runs that may reach the network; null
   * gives it none (its fetch fails at once). Never the runtime's default outbound, which
   * would be the internet unmetered.
   */
  outbound: Outbound | null;
  /**
   * The workspace's link to its computerd, when this deployment has a container host (a
   * Cloudflare Container binding, or the local supervisor); null leaves `container`
   * unavailable. `pathPrefix` is the run's credential confinement; `egress` the run's allow
   * list and how its bytes are billed (computerd's proxy counts them), null for no network.
   */
  container: ({ link: ComputerLink } & ContainerRunOptions) | null;
}

/** An outbound path for a sandbox: the egress gateway (egress/MeteredOutbound.ts, exported as EgressGateway) with its props bound. */
export interface Outbound {
  /** Becomes the sandbox's `globalOutbound`: every fetch it makes goes here. */
  fetcher: Fetcher;
  /**
   * Names who the fetcher bills and what it lets through (`<workspace>:<key>:any`, or
   * `…:allow-<digest of the allow list>`). A sandbox's outbound is fixed when its isolate is
   * created, so executors add this to the warm isolate's id: a sandbox is reused only by runs
   * its outbound attributes correctly and holds to their own allow list.
   */
  attribution: string;
}
