/**
 * Which executors this deployment can run, built for one workspace object. The object
 * passes its file capability; each executor decides how its sandbox reaches it.
 */
import { createContainerExecutor } from "./container/ContainerExecutor.ts";
import type { ExecutorContext } from "./context.ts";
import type { Executor, ExecutorName } from "./contract.ts";
import { createJavascriptExecutor } from "./javascript/JavascriptExecutor.ts";
import { createShellExecutor } from "./shell/ShellExecutor.ts";

export type { ExecutorContext, Outbound } from "./context.ts";

/** An executor this deployment cannot run answers null, which the API reports as `executor_unavailable`. */
export function createExecutor(name: ExecutorName, context: ExecutorContext): Executor | null {
  switch (name) {
    case "shell":
      return createShellExecutor(context);
    case "javascript":
      return createJavascriptExecutor(context);
    case "container":
      return context.container ? createContainerExecutor(context.container.link, context.container) : null;
  }
}
