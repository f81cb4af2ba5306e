/**
 * Host side of the shell executor: the Dynamic Worker a workspace's shell runs in.
 *
 * One isolate per isolate key, network policy and guest version, named by all three: a run
 * that may reach the network never shares an isolate with one that may not (the outbound is
 * fixed when the isolate is created), and a new guest build never reuses an isolate holding
 * the old one. The isolate key is the tenant, plus the outbound's attribution when there is
 * one (ShellExecutor.ts), so an isolate with network bills one workspace and key and holds
 * to one allow list. The Worker
 * Loader keeps the isolate warm between runs and may drop it at any time; the guest keeps
 * nothing between runs that matters.
 *
 * The file capability reaches the guest with each `run`, as its third argument: any
 * RpcTarget (the workspace object's own), scoped to that run. The isolate itself holds no
 * binding, so a warm isolate shared by a tenant's workspaces can reach none of them alone.
 */
import {
  COMPATIBILITY_DATE,
  type ExecOutcome,
  type ExecRequest,
  type OutputSink,
  type WorkspaceFsApi,
  type WorkspaceToolsApi,
} from "../contract.ts";

export interface ShellGuestOptions {
  /** Which warm isolate to reuse (see above and registry.ts); never shown to the guest. */
  isolateKey: string;
  /**
   * The isolate's `globalOutbound`: the egress gateway for isolates whose runs may reach the
   * network, null (fetch fails at once) for the rest. Must be the same for every call with
   * the same isolate key, since only the call that creates the isolate uses it.
   */
  outbound: Fetcher | null;
  /** The bundled guest module (shellGuestCode.guestSource). */
  guestSource: string;
  /** The bundle's content hash (shellGuestCode.version). */
  version: string;
}

/**
 * The guest's entrypoint (guest/index.ts) as its callers see it over RPC. Declared here
 * rather than derived (`Fetcher<ShellGuest>`): tsc gives up on the derived type once a
 * recursive type (ExecOutcome's JsonValue) is involved.
 */
export interface ShellGuestStub {
  /** Runs the request; `fs` and `tools`, when given, are the file and publishing capabilities for this run only. */
  run(request: ExecRequest, sink: OutputSink, fs?: WorkspaceFsApi, tools?: WorkspaceToolsApi): Promise<ExecOutcome>;
  /** Stops a run (cancelled, 137) at its next statement; unknown ids are ignored. */
  kill(execId: string): Promise<void>;
}

export function shellGuest(loader: WorkerLoader, options: ShellGuestOptions): ShellGuestStub {
  const id = `shell:${options.version}:${options.isolateKey}:${options.outbound ? "net" : "nonet"}`;
  const worker = loader.get(id, () => ({
    // The gateway's date; the guest needs `nodejs_compat` for just-bash's gzip (node:zlib).
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ["nodejs_compat"],
    mainModule: "guest.js",
    modules: { "guest.js": { js: options.guestSource } },
    env: {},
    // Never omitted: without it the guest's fetch() would go to the internet unmetered.
    globalOutbound: options.outbound,
  }));
  return worker.getEntrypoint() as unknown as ShellGuestStub;
}
