/**
 * The state the builtin modules (`node:fs`, `node:fs/promises`, `ws:artifacts`, `ws:ai`, `ws:git`)
 * read: the current run's file shim and tools. One isolate serves exactly one run, so a
 * module-level slot is enough; it is set before module code is imported.
 */
import type { Ai } from "./ai.ts";
import type { Artifacts } from "./artifacts.ts";
import type { FsPromises } from "./fsPromises.ts";

export interface RunContext {
  fsPromises: FsPromises;
  nodeFs: Record<string, unknown>;
  artifacts: Artifacts;
  ai: Ai;
}

let current: RunContext | undefined;

export function setRunContext(context: RunContext): void {
  current = context;
}

/** The run's context; the facade modules call it when module code imports them. */
export function runContext(): RunContext {
  if (!current) throw new Error("no javascript run is active in this isolate");
  return current;
}
