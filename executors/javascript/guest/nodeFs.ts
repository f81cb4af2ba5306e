/**
 * `node:fs` for module code: `promises` and `constants`, the promise functions again in
 * callback form (`fs.readFile(path, (err, data) => …)`), and every common synchronous
 * function as a stub that throws a clear error. Synchronous file access cannot exist here:
 * every file operation is an RPC to the workspace object, and RPC is asynchronous.
 */
import { nodeFsCallbackNames as callbackNames, nodeFsSyncNames as syncNames } from "../exportNames.ts";
import type { FsPromises } from "./fsPromises.ts";
import { constants } from "./stats.ts";

type Callback = (error: unknown, value?: unknown) => void;

function unavailable(name: string): () => never {
  const promised = name.replace(/Sync$/, "");
  const hint =
    name === "existsSync" || name === "exists"
      ? "use `await access(path)` from node:fs/promises (it rejects with ENOENT)"
      : name.startsWith("create") || ["watch", "openSync", "closeSync"].includes(name)
        ? "streams, watchers and file handles are not available; read and write whole files with node:fs/promises"
        : `use \`await ${promised}(…)\` from node:fs/promises`;
  return () => {
    throw new Error(`fs.${name} is not available in the javascript executor (file access is asynchronous): ${hint}`);
  };
}

export function createNodeFs(promises: FsPromises): Record<string, unknown> {
  const module: Record<string, unknown> = { promises, constants };
  for (const name of callbackNames) {
    const call = promises[name as keyof FsPromises] as (...args: unknown[]) => Promise<unknown>;
    module[name] = (...args: unknown[]) => {
      const done = args.pop();
      if (typeof done !== "function") throw new TypeError(`The "cb" argument must be of type function`);
      call(...args).then(
        (value) => (done as Callback)(null, value),
        (error) => (done as Callback)(error),
      );
    };
  }
  for (const name of syncNames) module[name] = unavailable(name);
  return module;
}
