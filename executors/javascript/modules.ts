/**
 * The module graph of one run, resolved before its Worker starts: the request's code, the
 * workspace modules it imports by relative path (read through the run's file capability,
 * recursively), and the builtins it names. Every module is instrumented (instrument.ts) and
 * its specifiers made canonical; the result is the Worker Loader's module map, named by
 * workspace path (`/workspace/lib/a.js` is the module `workspace/lib/a.js`).
 *
 * Node's ESM rules: a relative specifier names a file exactly (no extension guessing, no
 * index files). `.js` and `.mjs` are ES modules, `.json` a JSON module. A specifier that is
 * neither a path nor a builtin fails the run, naming the import and the importing file.
 * Dynamic `import("./x.js")` with a literal is resolved like a static import, except that a
 * missing target fails only when the import runs; `import(variable)` can reach only
 * modules already in the map.
 */
import { init, parse } from "es-module-lexer/js";
import type { WorkspaceFsApi } from "../contract.ts";
import { execLimits } from "../limits.ts";
import { type Builtin, builtinFor } from "./builtins.ts";
import { absolutePath, workspacePath } from "./guest/paths.ts";
import { applyEdits, type Edit, guardEdits } from "./instrument.ts";
import { moduleNames } from "./protocol.ts";

export type WorkerModule = { js: string } | { json: unknown };

export interface ModuleGraph {
  ok: true;
  /** The entry module's name (the request's code). */
  entry: string;
  modules: Record<string, WorkerModule>;
  builtins: Set<Builtin>;
}

export interface ModuleFailure {
  ok: false;
  /** Printed on the run's stderr, as Node would print a failed import. */
  message: string;
}

interface Pending {
  /** Absolute path as module code sees it (`/workspace/lib/a.js`). */
  path: string;
  source: string;
  depth: number;
}

const decoder = new TextDecoder();
const lexerReady = init();

const moduleName = (path: string) => path.slice(1);
const dirOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";

export async function resolveModules(
  code: string,
  cwd: string,
  fs: WorkspaceFsApi,
  guardName: string,
): Promise<ModuleGraph | ModuleFailure> {
  await lexerReady;
  const entryPath = absolutePath(cwd, moduleNames.codeFile);
  const graph: ModuleGraph = { ok: true, entry: moduleName(entryPath), modules: {}, builtins: new Set() };
  const queue: Pending[] = [{ path: entryPath, source: code, depth: 0 }];
  const seen = new Set([entryPath]);
  let bytes = code.length;
  for (let next = queue.shift(); next; next = queue.shift()) {
    const pending = next;
    const found = importsOf(pending, graph, guardName);
    if (!found.ok) return found;
    for (const child of found.children) {
      if (seen.has(child.path)) continue;
      seen.add(child.path);
      if (seen.size > execLimits.javascriptModulesMax) {
        return { ok: false, message: `too many modules: more than ${execLimits.javascriptModulesMax} are imported` };
      }
      if (pending.depth + 1 > execLimits.javascriptImportDepthMax) {
        return {
          ok: false,
          message: `imports nest deeper than ${execLimits.javascriptImportDepthMax} modules (at ${child.path}, imported from ${pending.path})`,
        };
      }
      const loaded = await load(child.path, pending.path, child.dynamic, fs);
      if (loaded === null) continue;
      if (!loaded.ok) return loaded;
      bytes += loaded.source.length;
      if (bytes > execLimits.javascriptModuleBytesMax) {
        return {
          ok: false,
          message: `modules total more than ${execLimits.javascriptModuleBytesMax} bytes (at ${child.path})`,
        };
      }
      if (child.path.endsWith(".json")) {
        const json = parseJson(loaded.source, child.path);
        if (!json.ok) return json;
        graph.modules[moduleName(child.path)] = { json: json.value };
      } else queue.push({ path: child.path, source: loaded.source, depth: pending.depth + 1 });
    }
  }
  return graph;
}

function parseJson(source: string, path: string): { ok: true; value: unknown } | ModuleFailure {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    return { ok: false, message: `SyntaxError: ${path}: ${(error as Error).message}` };
  }
}

/** A workspace module's source; null for a dynamic import's missing target (it fails when it runs). */
async function load(
  path: string,
  importer: string,
  dynamic: boolean,
  fs: WorkspaceFsApi,
): Promise<{ ok: true; source: string } | ModuleFailure | null> {
  const at = workspacePath(path);
  const read = at === null ? null : await fs.readFile(at);
  if (read?.ok) return { ok: true, source: decoder.decode(read.bytes) };
  if (dynamic) return null;
  const reason = read === null ? "outside /workspace" : read.code === "ENOENT" ? "no such file" : read.message;
  const hint = /\.[a-z]+$/i.test(path) ? "" : " (ES module imports name the file exactly, extension included)";
  return {
    ok: false,
    message: `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '${path}' imported from ${importer}: ${reason}${hint}`,
  };
}

/** Parses one module: records its builtins, queues its workspace imports, and stores it instrumented. */
function importsOf(
  pending: Pending,
  graph: ModuleGraph,
  guardName: string,
): { ok: true; children: { path: string; dynamic: boolean }[] } | ModuleFailure {
  const { path, source } = pending;
  let imports: ReturnType<typeof parse>[0];
  try {
    [imports] = parse(source, path);
  } catch (error) {
    return { ok: false, message: `SyntaxError: ${path}: ${(error as Error).message}` };
  }
  const edits: Edit[] = [];
  const children: { path: string; dynamic: boolean }[] = [];
  for (const entry of imports) {
    // import.meta, and import(expression) without a literal or with a template, have nothing to resolve here.
    if (entry.type === "import-meta" || entry.specifier === undefined || (entry.type === "dynamic" && entry.glob))
      continue;
    const specifier = entry.specifier;
    const dynamic = entry.type === "dynamic";
    const rewrite = (text: string) => {
      // A dynamic import's span includes its quotes; a static one's does not.
      const quoted = JSON.stringify(text);
      if (text !== specifier)
        edits.push({ start: entry.start, end: entry.end, text: dynamic ? quoted : quoted.slice(1, -1) });
    };
    if (entry.attributesStart > -1) {
      // workerd refuses import attributes (`with { type: "json" }`, which Node requires for JSON); the
      // module map already says what each module is. Static: from the closing quote; dynamic: the options.
      const from = dynamic ? entry.end : entry.end + 1;
      edits.push({ start: from, end: dynamic ? entry.importEnd - 1 : entry.importEnd, text: "" });
    }
    if (specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/")) {
      const target = absolutePath(dirOf(path), specifier);
      const kind = target.match(/\.(m?js|json)$/)?.[1];
      if (workspacePath(target) === null || (kind === undefined && !dynamic)) {
        const why =
          workspacePath(target) === null
            ? "only files under /workspace can be imported"
            : "only .js, .mjs and .json files can be imported";
        return { ok: false, message: `Error: Cannot import '${specifier}' from ${path}: ${why}` };
      }
      children.push({ path: target, dynamic });
      continue;
    }
    const builtin = builtinFor(specifier);
    if (builtin) {
      rewrite(builtin.rewrite);
      if (builtin.builtin) graph.builtins.add(builtin.builtin);
    } else if (!dynamic) {
      return {
        ok: false,
        message:
          `Error: Cannot import '${specifier}' from ${path}: packages are not available in the javascript executor. ` +
          "Import workspace files by relative path (./lib/util.js), node: builtins, ws:git, ws:artifacts or ws:ai.",
      };
    }
  }
  // Specifier edits sit inside string literals, which the guard's edits never touch.
  graph.modules[moduleName(path)] = { js: applyEdits(source, [...edits, ...guardEdits(source, guardName)]) };
  return { ok: true, children };
}
