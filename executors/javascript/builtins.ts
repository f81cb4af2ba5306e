/**
 * The modules module code may import that are not workspace files: Node's builtins as
 * nodejs_compat provides them, except `fs` and `fs/promises`, which are this executor's
 * own (guest/fsPromises.ts) over the workspace; and the platform's `ws:git`,
 * `ws:artifacts` and `ws:ai`. Each of ours is a small facade module, generated here, that reads the
 * run's state from the runtime (`runContext()`), so the module map stays static text.
 */
import {
  aiExportNames,
  artifactsExportNames,
  fsPromisesExportNames,
  gitMethodNames,
  nodeFsExportNames,
} from "./exportNames.ts";
import { moduleNames } from "./protocol.ts";

/** Node builtins that nodejs_compat provides and that mean something without a real OS. */
const nodeBuiltins = new Set([
  "assert",
  "assert/strict",
  "async_hooks",
  "buffer",
  "crypto",
  "diagnostics_channel",
  "events",
  "fs",
  "fs/promises",
  "module",
  "os",
  "path",
  "path/posix",
  "path/win32",
  "perf_hooks",
  "process",
  "punycode",
  "querystring",
  "stream",
  "stream/consumers",
  "stream/promises",
  "stream/web",
  "string_decoder",
  "timers",
  "timers/promises",
  "url",
  "util",
  "util/types",
  "zlib",
]);

export type Builtin = "node:fs" | "node:fs/promises" | "ws:git" | "ws:artifacts" | "ws:ai";

const platformModules = new Set<string>(["ws:git", "ws:artifacts", "ws:ai"]);

/**
 * How an import specifier that is not a path resolves: to one of our builtins, to a
 * nodejs_compat builtin (`node:` form, which module code may also write bare, as in Node),
 * or to nothing (null).
 */
export function builtinFor(specifier: string): { rewrite: string; builtin?: Builtin } | null {
  // Absolute, because workerd resolves any other name (except `node:`) against the importing module's directory.
  if (platformModules.has(specifier)) return { rewrite: `/${specifier}`, builtin: specifier as Builtin };
  const name = specifier.startsWith("node:") ? specifier.slice(5) : specifier;
  if (!nodeBuiltins.has(name)) return null;
  const rewrite = `node:${name}`;
  // A module named `fs/promises` loses to workerd's own; one named `node:fs/promises` wins.
  if (name === "fs" || name === "fs/promises") return { rewrite, builtin: rewrite as Builtin };
  return { rewrite };
}

const named = (source: string, names: readonly string[]) =>
  names.map((name) => `export const ${name} = ${source}.${name};`).join("\n");

/** Facades import the runtime by absolute name: a relative one would resolve against `node:fs/`. */
const fromRuntime = `import { runContext } from "/${moduleNames.runtime}";\nconst run = runContext();`;

/** The facade modules for the builtins a run imports, by module name. */
export function builtinModules(used: Iterable<Builtin>, gitSource: string): Record<string, { js: string }> {
  const modules: Record<string, { js: string }> = {};
  for (const builtin of used) {
    switch (builtin) {
      case "node:fs/promises":
        modules[builtin] = {
          js: `${fromRuntime}\nconst fs = run.fsPromises;\n${named("fs", fsPromisesExportNames)}\nexport default fs;\n`,
        };
        break;
      case "node:fs":
        modules[builtin] = {
          js: `${fromRuntime}\nconst fs = run.nodeFs;\n${named("fs", nodeFsExportNames)}\nexport default fs;\n`,
        };
        break;
      case "ws:artifacts":
        modules[builtin] = {
          js: `${fromRuntime}\nconst artifacts = run.artifacts;\n${named("artifacts", artifactsExportNames)}\nexport default artifacts;\n`,
        };
        break;
      case "ws:ai":
        modules[builtin] = {
          js: `${fromRuntime}\nconst ai = run.ai;\n${named("ai", aiExportNames)}\nexport default ai;\n`,
        };
        break;
      case "ws:git":
        modules[moduleNames.git] = { js: gitSource };
        modules[builtin] = {
          js: [
            fromRuntime,
            `import { gitOver, GitError } from "/${moduleNames.git}";`,
            "export const createGit = gitOver(run.fsPromises, () => process.cwd());",
            "const git = createGit();",
            named("git", gitMethodNames),
            "export { GitError };",
            "export default git;",
          ].join("\n"),
        };
        break;
    }
  }
  return modules;
}
