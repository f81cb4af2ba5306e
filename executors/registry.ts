/**
 * Which executors this deployment can run, built for one workspace object. The object
 * passes its file capability; each executor decides how its sandbox reaches it.
 */
import type { Executor, ExecutorName, WorkspaceFsApi } from "./contract.ts";
import { createShellExecutor } from "./shell/ShellExecutor.ts";

export interface ExecutorContext {
  /** The Worker Loader, for executors that run code in Dynamic Workers. */
  loader: WorkerLoader;
  /** This workspace's filesystem, as a capability (an RpcTarget the sandbox may call). */
  fs: WorkspaceFsApi;
  /** Identifies the workspace for isolate reuse (never shown to the sandbox). */
  workspaceKey: string;
  /** Whether this run may reach the network. */
  egress: boolean;
}

/** Executors not built yet answer null, which the API reports as `executor_unavailable`. */
export function createExecutor(name: ExecutorName, context: ExecutorContext): Executor | null {
  switch (name) {
    case "shell":
      return createShellExecutor(context);
    case "javascript":
    case "container":
      return null;
  }
}
